import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { DomainError } from '../errors.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import * as schema from './schema.ts';

/** The extensions the migrations create; PGlite loads an extension's files only when asked to. */
const PGLITE_EXTENSIONS = { pg_trgm };

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string } | { kind: 'pglite-memory' };

/**
 * An open database: the Drizzle handle plus the raw client that migrations and the job
 * queue need. `close` releases everything, the data-dir lock included.
 */
export type Database =
  | { kind: 'postgres'; db: Db; pool: pg.Pool; url: string; describe: string; close(): Promise<void> }
  | { kind: 'pglite'; db: Db; pglite: PGlite; dataDir: string | undefined; describe: string; close(): Promise<void> };

/** The URL with its password replaced, safe to print. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

export function databaseTargetFromEnv(env: { DATABASE_URL?: string | undefined; DATA_DIR?: string | undefined }): DatabaseTarget {
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL };
  return { kind: 'pglite', dataDir: resolve(env.DATA_DIR ?? './data') };
}

/**
 * Opens the database. `holder` names the process kind ("server", "admin command") in the
 * message another process gets when it finds the embedded database taken.
 */
export async function openDatabase(target: DatabaseTarget, holder = 'process'): Promise<Database> {
  if (target.kind === 'postgres') return openPostgres(target.url);

  if (target.kind === 'pglite-memory') {
    const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    return {
      kind: 'pglite',
      pglite,
      db: drizzlePglite(pglite, { schema }) as unknown as Db,
      dataDir: undefined,
      describe: 'embedded PostgreSQL (in memory)',
      close: () => pglite.close(),
    };
  }

  const lock = acquireDataDirLock(target.dataDir, holder);
  try {
    const dir = resolve(target.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    const pglite = await PGlite.create({ dataDir: dir, extensions: PGLITE_EXTENSIONS });
    return {
      kind: 'pglite',
      pglite,
      db: drizzlePglite(pglite, { schema }) as unknown as Db,
      dataDir: target.dataDir,
      describe: `embedded PostgreSQL in ${target.dataDir}`,
      close: async () => {
        try {
          await pglite.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function openPostgres(url: string): Promise<Database> {
  const describe = `PostgreSQL at ${redactDatabaseUrl(url)}`;
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5000, max: 10 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DomainError(
      'unavailable',
      `Cannot reach ${describe}: ${(error as Error).message}. Check that the server is running and DATABASE_URL is right.`,
      { cause: error },
    );
  }
  return {
    kind: 'postgres',
    pool,
    url,
    db: drizzleNodePg(pool, { schema }) as unknown as Db,
    describe,
    close: () => pool.end(),
  };
}

/** Throws when the database does not answer; used by the health check. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function selectRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
