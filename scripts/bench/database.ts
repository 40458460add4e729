import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  createApiToken,
  createOrganization,
  createUser,
  type Database,
  type DatabaseTarget,
  migrateDatabase,
  openDatabase,
  setMembership,
} from '@docagent/core';
import pg from 'pg';

export type BenchDb = 'pglite' | 'postgres';

/** Where `--db postgres` creates its databases; override with BENCH_POSTGRES_URL. */
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  target: DatabaseTarget;
  /** Drops the PostgreSQL database (the embedded one goes with its folder). */
  drop(): Promise<void>;
}

async function adminQuery(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** A fresh database for one benchmark run: an embedded one under `dir`, or a new PostgreSQL database. */
export async function createBenchDatabase(kind: BenchDb, dir: string): Promise<BenchDatabase> {
  if (kind === 'pglite') return { target: { kind: 'pglite', dataDir: join(dir, 'data') }, drop: async () => {} };
  const name = `docagent_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: url.toString() },
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

/** Opens and migrates the database, runs `fn`, and closes it: the embedded one must be free before a server opens it. */
export async function withDatabase<T>(target: DatabaseTarget, fn: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(target, 'benchmark');
  try {
    await migrateDatabase(database);
    return await fn(database);
  } finally {
    await database.close();
  }
}

export interface BenchAccount {
  orgId: string;
  userId: string;
  token: string;
}

/** A user, their organization and an API token, as `docagent admin` would make them. */
export async function seedAccount(database: Database): Promise<BenchAccount> {
  const user = await createUser(database.db, { email: 'bench@example.test', password: randomBytes(16).toString('hex') });
  const org = await createOrganization(database.db, { name: 'Benchmarks' });
  await setMembership(database.db, { orgId: org.id, userId: user.id, role: 'admin' });
  const token = await createApiToken(database.db, { orgId: org.id, name: 'bench', createdBy: user.id });
  return { orgId: org.id, userId: user.id, token: token.token };
}
