import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { TestContext } from 'node:test';

/**
 * Puts a shell script named `name` first on PATH until the test ends, standing in for a real
 * command (one that fails or hangs as a hostile input can make it). Returns its folder, for
 * files the script writes.
 */
export function fakeCommandOnPath(t: TestContext, name: string, script: string): string {
  const bin = mkdtempSync(join(tmpdir(), `docagent-fake-${name}-`));
  writeFileSync(join(bin, name), script);
  chmodSync(join(bin, name), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${bin}${delimiter}${path}`;
  t.after(() => {
    process.env.PATH = path;
    rmSync(bin, { recursive: true, force: true });
  });
  return bin;
}

/** Sets an environment variable of this process until the test ends. */
export function envUntilTestEnds(t: TestContext, name: string, value: string): void {
  const before = process.env[name];
  process.env[name] = value;
  t.after(() => {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  });
}
