import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureWebBuild } from './web-build.ts';

/**
 * `npm test`: every workspace's tests on the embedded database, then, when
 * TEST_DATABASE_URL is set, all of them again on that PostgreSQL server.
 * Extra arguments are passed to `node --test` (e.g. --test-name-pattern).
 */
const MODULE_LOADING = fileURLToPath(new URL('../apps/server/src/module-loading.ts', import.meta.url));
const files = globSync(['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts']).sort();
if (files.length === 0) throw new Error('no test files found');
ensureWebBuild();

const passes: Array<'pglite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
let failed = false;
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
  // cache, and a hook without which importing drizzle-orm alone costs each process half a second).
  const result = spawnSync(
    process.execPath,
    ['--test', '--test-concurrency=3', '--import', MODULE_LOADING, ...process.argv.slice(2), ...files],
    {
      stdio: 'inherit',
      env: { ...process.env, DOCAGENT_TEST_DB: db },
    },
  );
  if (result.status !== 0) failed = true;
}
if (!process.env.TEST_DATABASE_URL) process.stdout.write('\nTEST_DATABASE_URL is not set: the PostgreSQL pass was skipped.\n');
process.exit(failed ? 1 : 0);
