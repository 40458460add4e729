import { DEFAULT_PROMPT_REVID, DomainError, EXTRACTIONS_DATASET_ID, invalidInput, isId } from '@docagent/core';
import type { FastifyInstance } from 'fastify';

/**
 * Input no route can store, refused once for every route before any of them sees it:
 * PostgreSQL rejects NUL in text and jsonb, a lone UTF-16 surrogate is not Unicode (jsonb
 * rejects it, text silently turns it into U+FFFD), and deeply nested JSON overflows the
 * stack of every recursive walk after us (JSON.stringify, validators, the database driver).
 */

/** Deepest nesting of objects and arrays a JSON body may have; real bodies (JSON schemas included) stay far below. */
export const MAX_JSON_DEPTH = 64;

/** Why a string cannot be stored, or undefined when it can. */
function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'contains a NUL character (U+0000); remove it.';
  if (!value.isWellFormed()) return 'contains a lone UTF-16 surrogate, which is not Unicode text; send valid UTF-8.';
  return undefined;
}

/** A key as shown in a path: a 10,000-character key would drown the message. */
const shortened = (key: string) => (key.length > 40 ? `${key.slice(0, 40)}…` : key);

/**
 * Throws invalid_input naming the first string (or object key) under `root` that cannot be
 * stored, or the first value nested deeper than MAX_JSON_DEPTH. The walk keeps its own stack,
 * so input of any depth cannot overflow ours.
 */
export function checkStorable(root: unknown, where: string): void {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: where, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path, depth } = next;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) throw invalidInput(`${path}: ${problem}`);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth === MAX_JSON_DEPTH) {
      throw invalidInput(`${path}: nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays; flatten it.`);
    }
    const children = Object.entries(value);
    // Reversed onto the stack, so the first problem reported is the first in the document.
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i] as [string, unknown];
      const problem = textProblem(key);
      if (problem) throw invalidInput(`${path}: the key ${JSON.stringify(shortened(key))} ${problem}`);
      pending.push({ value: child, path: `${path}.${shortened(key)}`, depth: depth + 1 });
    }
  }
}

/** Path parameters holding one of our ids: organization_id, document_id, schema_revid, ... */
const ID_PARAMETER = /_(id|revid)$/;

/**
 * A malformed id names nothing, so it is "not found", exactly like a well-formed id that
 * matches nothing: callers see one status for "no such thing", whatever they sent. Two names
 * stand for ids, as DocRouter's `default` does: `default` (the default prompt's latest
 * revision) and `extractions` (the organization's built-in dataset).
 */
function refuseMalformedIds(params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) {
    if (!ID_PARAMETER.test(name) || isId(value)) continue;
    if (name === 'prompt_revid' && value === DEFAULT_PROMPT_REVID) continue;
    if (name === 'dataset_id' && value === EXTRACTIONS_DATASET_ID) continue;
    throw new DomainError(
      'not_found',
      `${name} ${JSON.stringify(value.slice(0, 40))} was not found: ids are 24 hexadecimal characters; use one the API returned.`,
    );
  }
}

/**
 * Path and query are checked on request, before authentication reads the organization id from
 * the path; bodies once parsed, before validation and the route.
 */
export function registerInputHygiene(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const params = (request.params ?? {}) as Record<string, string>;
    checkStorable(params, 'params');
    checkStorable(request.query, 'query');
    refuseMalformedIds(params);
  });
  app.addHook('preValidation', async (request) => {
    if (request.body !== undefined) checkStorable(request.body, 'body');
  });
}
