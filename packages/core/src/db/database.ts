import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { DomainError } from '../errors.ts';
import { acquireDataDirLock, type DataDirLock, runningHolder } from './data-dir-lock.ts';
import { EMBEDDED_PORT, startEmbeddedPostgres } from './embedded/embedded-postgres.ts';
import { type Notices, postgresNotices, processNotices } from './notices.ts';
import * as schema from './schema.ts';
import { nameRepeatedStatements } from './statement-naming.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * `template`, for an embedded database in memory: a dump of a data folder (PGlite's dumpDataDir,
 * uncompressed) that it starts from instead of an empty database. The tests start from an already
 * migrated one, which takes a third of the time of making a database and migrating it.
 */
export type DatabaseTarget =
  | { kind: 'postgres'; url: string; namedStatements?: boolean }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite-memory'; template?: string };

/** Where in DATA_DIR the embedded database keeps its files. */
export const pgliteFolder = (dataDir: string) => resolve(dataDir, 'pglite');

/** How another client (the job queue) reaches the same database. */
export type ConnectionSettings = (
  | { connectionString: string }
  | { host: string; port: number; user: string; database: string }
) & { connectionTimeoutMillis?: number };

/**
 * An open database: the Drizzle handle, its pool and how to connect to it again. The embedded
 * database (PGlite) runs in a thread of its own and is reached over a Unix socket, so both
 * kinds are PostgreSQL to node-postgres. `close` releases everything, the data-dir lock included.
 */
export interface Database {
  kind: 'postgres' | 'pglite';
  db: Db;
  pool: pg.Pool;
  connection: ConnectionSettings;
  /** The embedded database's folder (its files, lock and secrets); none in memory or on PostgreSQL. */
  dataDir: string | undefined;
  describe: string;
  /** Messages to the processes on this database (notices.ts). */
  notices: Notices;
  /**
   * Records where this process serves docagent over HTTP, for `docagent mcp` on the same data
   * folder (runningServerUrl). Only the process that holds the embedded database records it.
   */
  announceServer(url: string): void;
  close(): Promise<void>;
}

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

export function databaseTargetFromEnv(env: {
  DATABASE_URL?: string | undefined;
  DATABASE_NAMED_STATEMENTS?: boolean | undefined;
  DATA_DIR?: string | undefined;
}): DatabaseTarget {
  if (env.DATABASE_URL)
    return { kind: 'postgres', url: env.DATABASE_URL, namedStatements: env.DATABASE_NAMED_STATEMENTS ?? true };
  return { kind: 'pglite', dataDir: resolve(env.DATA_DIR ?? './data') };
}

/**
 * The HTTP address of the docagent process on this machine that has the embedded database in
 * `target` open, when it serves one (a server does; an admin command does not).
 */
export function runningServerUrl(target: DatabaseTarget): string | undefined {
  return target.kind === 'pglite' ? runningHolder(target.dataDir)?.url : undefined;
}

export interface OpenOptions {
  /** Called with every statement the Drizzle handle sends (not the job queue's): tests count a step's statements with it. */
  logQuery?: (query: string, params: unknown[]) => void;
  /**
   * When another docagent process has the embedded database open, use it through that
   * process (the admin command does) instead of refusing.
   */
  shareRunning?: boolean;
}

/**
 * Opens the database. `holder` names the process kind ("server", "admin command") in the
 * message another process gets when it finds the embedded database taken.
 */
export async function openDatabase(target: DatabaseTarget, holder = 'process', options: OpenOptions = {}): Promise<Database> {
  if (target.kind === 'postgres') {
    const describe = `PostgreSQL at ${redactDatabaseUrl(target.url)}`;
    return connect({ connectionString: target.url }, 'postgres', describe, undefined, options, async () => {}, {
      namedStatements: target.namedStatements !== false,
    });
  }
  if (target.kind === 'pglite-memory') {
    const embedded = await startEmbeddedPostgres({ template: target.template });
    return connect(
      socketSettings(embedded.socketFolder),
      'pglite',
      'embedded PostgreSQL (in memory)',
      undefined,
      options,
      embedded.close,
    );
  }

  const describe = `embedded PostgreSQL in ${target.dataDir}`;
  let lock: DataDirLock;
  try {
    lock = acquireDataDirLock(target.dataDir, holder);
  } catch (error) {
    const running = options.shareRunning ? runningHolder(target.dataDir)?.socket : undefined;
    if (!running) throw error;
    return connect(
      socketSettings(running),
      'pglite',
      `${describe}, through the docagent process that has it open`,
      target.dataDir,
      options,
      async () => {},
    );
  }
  try {
    const dir = pgliteFolder(target.dataDir);
    mkdirSync(dir, { recursive: true });
    const embedded = await startEmbeddedPostgres({ dataDir: dir, socketFolder: target.dataDir });
    lock.announce({ socket: embedded.socketFolder });
    let statistics: { stop(): void } | undefined;
    const database = await connect(
      socketSettings(embedded.socketFolder),
      'pglite',
      describe,
      target.dataDir,
      options,
      async () => {
        statistics?.stop();
        try {
          await embedded.close();
        } finally {
          lock.release();
        }
      },
    );
    statistics = keepStatistics(database.pool);
    return { ...database, announceServer: (url) => lock.announce({ url }) };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** ANALYZE of every table of the database, one statement per table. */
export async function analyzeEachTable(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
  );
  for (const { name } of rows) await pool.query(`analyze ${name}`);
}

const ANALYZE_FIRST_MS = 60_000;
const ANALYZE_EVERY_MS = 15 * 60_000;

/**
 * PGlite runs no autovacuum, so without this the planner never has statistics: an export of
 * 50,000 results then read every result of the prompt for each page (15 times slower than
 * with statistics). A minute after start, then every quarter of an hour, the database is analyzed,
 * a table at a time: the embedded database serves one statement at a time, and a whole-database
 * ANALYZE held it from everyone for 250 ms with 100,000 pages stored (the largest table: 100 ms).
 */
function keepStatistics(pool: pg.Pool): { stop(): void } {
  const analyzeQuietly = () => void analyzeEachTable(pool).catch(() => {});
  const first = setTimeout(analyzeQuietly, ANALYZE_FIRST_MS).unref();
  const every = setInterval(analyzeQuietly, ANALYZE_EVERY_MS).unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}

/**
 * The embedded database is one session that clients take turns on, and a new connection's
 * start waits its turn too: a connection that takes long means a long statement or transaction
 * of another client (storing a 45 MB CSV's text takes seconds), not a server that is gone. So
 * clients wait up to a minute for it instead of PostgreSQL's 5 seconds (pg-boss's pool too).
 */
const EMBEDDED_CONNECT_TIMEOUT_MS = 60_000;

function socketSettings(folder: string): ConnectionSettings {
  return {
    host: folder,
    port: EMBEDDED_PORT,
    user: 'postgres',
    database: 'postgres',
    connectionTimeoutMillis: EMBEDDED_CONNECT_TIMEOUT_MS,
  };
}

async function connect(
  connection: ConnectionSettings,
  kind: Database['kind'],
  describe: string,
  dataDir: string | undefined,
  options: OpenOptions,
  closeServer: () => Promise<void>,
  // The embedded database's session server keeps each client's named statements its own.
  { namedStatements }: { namedStatements: boolean } = { namedStatements: true },
): Promise<Database> {
  const pool = new pg.Pool({ connectionTimeoutMillis: 5000, ...connection, max: 10 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  if (namedStatements) nameRepeatedStatements(pool);
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => {});
    await closeServer();
    throw new DomainError(
      'unavailable',
      `Cannot reach ${describe}: ${(error as Error).message}. ` +
        (kind === 'postgres' ? 'Check that the server is running and DATABASE_URL is right.' : 'Restart docagent.'),
      { cause: error },
    );
  }
  const logger = options.logQuery ? { logQuery: options.logQuery } : false;
  const notices = kind === 'postgres' ? postgresNotices(pool, connection) : processNotices();
  return {
    kind,
    pool,
    connection,
    dataDir,
    describe,
    notices,
    db: drizzle(pool, { schema, logger }) as unknown as Db,
    announceServer: () => {},
    close: async () => {
      try {
        await notices.close();
        await pool.end();
      } finally {
        await closeServer();
      }
    },
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
