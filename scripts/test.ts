// First, as in every docagent process: among what it sets up is the compile cache's folder in the
// environment, which each test file's process, and what it starts, then uses from its first module.
import '../apps/server/src/module-loading.ts';
import { spawnSync } from 'node:child_process';
import { globSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASELINE_WASM_FLAGS } from '../packages/core/src/db/embedded/wasm-tiering.ts';
import { filesUsingTestDatabase } from './test-files.ts';
import { ensureWebBuild } from './web-build.ts';

/**
 * `npm test`: every workspace's tests on the embedded database, then, when
 * TEST_DATABASE_URL is set, those that use the test database again on that PostgreSQL server.
 * Extra arguments are passed to `node --test` (e.g. --test-name-pattern).
 */
const MODULE_LOADING = fileURLToPath(new URL('../apps/server/src/module-loading.ts', import.meta.url));
const FAILURES_REPORTER = fileURLToPath(new URL('./failures-reporter.ts', import.meta.url));
const SLOWEST_FILES_REPORTER = fileURLToPath(new URL('./slowest-files-reporter.ts', import.meta.url));
const files = globSync(['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts']).sort();
if (files.length === 0) throw new Error('no test files found');
const databaseFiles = filesUsingTestDatabase(files);
ensureWebBuild();

const passes: Array<'pglite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
let failed = false;
// Each pass's failed tests, with their errors, are written apart and repeated after the last pass.
const failuresDir = mkdtempSync(join(tmpdir(), 'docagent-test-failures-'));
const failuresOf = (db: string) => join(failuresDir, `${db}.txt`);
for (const db of passes) {
  process.stdout.write(
    `\n=== tests on ${db === 'pglite' ? 'the embedded database (PGlite)' : 'PostgreSQL (TEST_DATABASE_URL)'} ===\n`,
  );
  // Three files at a time on two cores: most of a browser or server test is waiting (on a child
  // process, the database, a page), so with two files the cores sat idle a third of the time. The
  // third file filled them (server tests 270 s → 196 s, browser tests 141 s → 123 s); a fourth
  // gained little more. Tests are isolated (each has its own database, server and port), so they
  // do not see each other.
  // Every test file's process loads its modules as the server does (module-loading.ts: the compile
  // cache, and a hook without which importing drizzle-orm alone costs each process half a second),
  // and with the embedded database's WebAssembly left unoptimized, which a test file is too short to
  // gain from (wasm-tiering.ts); `node --test` gives its flags to each file's process.
  const result = spawnSync(
    process.execPath,
    [
      '--test',
      '--test-concurrency=3',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${FAILURES_REPORTER}`,
      `--test-reporter-destination=${failuresOf(db)}`,
      `--test-reporter=${SLOWEST_FILES_REPORTER}`,
      '--test-reporter-destination=stdout',
      ...BASELINE_WASM_FLAGS,
      '--import',
      MODULE_LOADING,
      ...process.argv.slice(2),
      ...(db === 'pglite' ? files : files.filter((file) => databaseFiles.has(resolve(file)))),
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, DOCAGENT_TEST_DB: db, DOCAGENT_TEST_DATABASE_FILES: JSON.stringify([...databaseFiles]) },
    },
  );
  if (result.status !== 0) failed = true;
}
for (const db of passes) {
  let text = '';
  try {
    text = readFileSync(failuresOf(db), 'utf8');
  } catch {
    // A pass that could not start its tests wrote no file: its own output says why.
  }
  if (text) process.stdout.write(`\n=== failed on ${db}, repeated from above ===\n${text}`);
}
rmSync(failuresDir, { recursive: true, force: true });
if (!process.env.TEST_DATABASE_URL) process.stdout.write('\nTEST_DATABASE_URL is not set: the PostgreSQL pass was skipped.\n');
process.exit(failed ? 1 : 0);
