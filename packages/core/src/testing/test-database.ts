import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { type Database, type DatabaseTarget, type OpenOptions, openDatabase, pgliteFolder } from '../db/database.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { migratedPgliteTemplate, unpackPgliteTemplate } from './pglite-template.ts';

/**
 * Which database the tests of this process run on: the embedded one by default, the
 * PostgreSQL server of TEST_DATABASE_URL when DOCAGENT_TEST_DB=postgres (the second pass
 * of `npm test`).
 */
export const testDatabaseKind = (): 'pglite' | 'postgres' =>
  process.env.DOCAGENT_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'DOCAGENT_TEST_DB=postgres needs TEST_DATABASE_URL (a PostgreSQL database the tests may create databases from).',
    );
  return url;
}

/**
 * `npm test` runs on PostgreSQL only the files it found importing this module (scripts/test-files.ts)
 * and lists them here; a file it missed fails, rather than lose its PostgreSQL pass unseen.
 */
function assertListedByTestRunner(): void {
  const listed = process.env.DOCAGENT_TEST_DATABASE_FILES;
  const file = process.argv[1];
  if (!listed || !file || (JSON.parse(listed) as string[]).includes(resolve(file))) return;
  throw new Error(
    `${file} uses the test database, but npm test did not see it import test-database.ts, so it would not run it on PostgreSQL. Import the module (or one that does) with a literal specifier.`,
  );
}

/**
 * A database of its own for one test file: a fresh PostgreSQL database (created on the
 * TEST_DATABASE_URL server and dropped by `drop`), or for PGlite either a folder under
 * `dataDir` or memory. `target` lets a test hand the same database to a child process.
 * An embedded one starts with every migration applied (pglite-template.ts), which is what its
 * user (a server, openTestDatabase) would do first, unless `empty` asks for one without tables.
 */
export async function createTestDatabaseTarget(options: { dataDir?: string; empty?: boolean } = {}): Promise<{
  target: DatabaseTarget;
  drop(): Promise<void>;
}> {
  assertListedByTestRunner();
  if (testDatabaseKind() === 'pglite') {
    const template = options.empty ? undefined : await migratedPgliteTemplate();
    const drop = async () => {};
    if (!options.dataDir) return { target: { kind: 'pglite-memory', template }, drop };
    if (template) unpackPgliteTemplate(template, pgliteFolder(options.dataDir));
    return { target: { kind: 'pglite', dataDir: options.dataDir }, drop };
  }
  const admin = new URL(serverUrl());
  const name = `docagent_t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** An open, migrated database for one test file; `close` also drops it. */
export async function openTestDatabase(options: OpenOptions = {}): Promise<Database> {
  const { target, drop } = await createTestDatabaseTarget();
  const database = await openDatabase(target, 'test', options);
  await migrateDatabase(database);
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      await drop();
    },
  } as Database;
}
