import { conflict } from '@docagent/core';
import type { z } from 'zod';

/**
 * The part of an applied call's recorded output that undoing it needs. The audit keeps outputs as
 * the tool returned them, so an output of an older tool version may lack it: that call cannot be
 * undone, and the refusal says so rather than guessing.
 */
export function recordedOutput<Shape extends z.ZodType>(tool: string, shape: Shape, output: unknown): z.infer<Shape> {
  const parsed = shape.safeParse(output);
  if (!parsed.success) {
    throw conflict(`The audit of this ${tool} call does not keep what undoing it needs, so it cannot be undone.`);
  }
  return parsed.data;
}

/** The refusal when the artifact has a version after the one the call wrote. */
export function changedSince(what: string, written: number, current: number): Error {
  return conflict(
    `${what} changed after this call saved version ${written}: it is at version ${current} now, and undoing the call would overwrite that later change. Change it by hand instead.`,
  );
}

/**
 * Refuses the undo of a call that saved no new version: its output says it changed nothing (an
 * older tool's output only says so in its message), or the version it names is the first.
 */
export function requireNewVersion(
  tool: string,
  what: string,
  applied: { changed?: boolean; message?: string },
  version: number,
): void {
  if (applied.changed === false || applied.message === 'No changes' || version < 2) {
    throw conflict(`This ${tool} call changed nothing (the ${what} stayed at version ${version}), so there is nothing to undo.`);
  }
}
