import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { pgliteExtensions } from '../db/embedded/pglite-extensions.ts';
import { migrationsFolder } from '../db/migrate.ts';

/**
 * A dump of an embedded database with every migration applied, for the tests' databases to start
 * from (DatabaseTarget's `template` in memory, unpacked into a data folder on disk): making a
 * PGlite database and migrating it takes 1.7 s (in memory) to 2.5 s (on disk) of CPU, starting
 * from the dump about 0.4 s, and the test suite makes one for nearly every file.
 * The dump is made once per machine for each PGlite version, set of migrations and what is done
 * after them, kept in the temporary folder, and replaced when any changes. The migrations still
 * run on every test database; against the dump they find nothing to do.
 */

const FOLDER = join(tmpdir(), 'docagent-pglite-templates');

/**
 * PostgreSQL's template databases serve only CREATE DATABASE, which no test does on an embedded
 * database. Without them the dump is 27 MB instead of 41 MB, and a test database starts from it
 * with about a quarter less CPU (408 against 553 ms, medians of 10 alternating, BENCHMARKS.md).
 * One statement at a time: DROP DATABASE refuses to run within a string of several.
 */
const WITHOUT_TEMPLATE_DATABASES = [
  `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
  'drop database template0',
  'drop database template1',
  'checkpoint',
];

let made: Promise<string> | undefined;

export function migratedPgliteTemplate(): Promise<string> {
  made ??= make();
  return made;
}

async function make(): Promise<string> {
  const file = join(FOLDER, `${templateKey()}.tar`);
  if (existsSync(file)) return file;
  const pglite = await PGlite.create({ extensions: pgliteExtensions });
  try {
    await migrate(drizzle(pglite), { migrationsFolder });
    for (const statement of WITHOUT_TEMPLATE_DATABASES) await pglite.exec(statement);
    const dump = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
    mkdirSync(FOLDER, { recursive: true });
    removeStaleTemplates();
    // Test files start in parallel and may each make it: the one renamed last stays, all alike.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, dump);
    renameSync(partial, file);
  } finally {
    await pglite.close();
  }
  return file;
}

/**
 * Writes the dump's files into an embedded database's folder that has none yet, as PGlite's own
 * `loadDataDir` would, without starting a database to do it (`tar` is part of every Debian).
 */
export function unpackPgliteTemplate(template: string, folder: string): void {
  if (existsSync(join(folder, 'PG_VERSION'))) return;
  mkdirSync(folder, { recursive: true });
  execFileSync('tar', ['-xf', template, '-C', folder], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * Other versions' dumps, and pieces a killed process left, a day after they were last written:
 * another checkout may still use a dump.
 */
function removeStaleTemplates(): void {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of readdirSync(FOLDER)) {
    const path = join(FOLDER, name);
    if ((statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Number.POSITIVE_INFINITY) < dayAgo) {
      rmSync(path, { force: true });
    }
  }
}

/** What the dump depends on: PGlite's version, the migrations' files and what is done after them. */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(pgliteVersion()).update(WITHOUT_TEMPLATE_DATABASES.join(';'));
  const files = readdirSync(migrationsFolder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const path of files) hash.update(path.slice(migrationsFolder.length)).update(readFileSync(path));
  return hash.digest('hex').slice(0, 16);
}

function pgliteVersion(): string {
  const file = findPackageJSON('@electric-sql/pglite', import.meta.url);
  if (!file) throw new Error('the package.json of @electric-sql/pglite was not found');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}
