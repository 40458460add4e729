import { fileURLToPath } from 'node:url';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { Database } from './database.ts';

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

// Any constant works; it only has to be the same in every docagent process.
const MIGRATION_LOCK_KEY = 7_204_118_003;

/**
 * Applies the committed migrations that this database has not seen yet (Drizzle records
 * them in drizzle.__drizzle_migrations). A session-level advisory lock makes servers that
 * start together take turns.
 * `afterMigrate` runs while the lock is still held, for one-time set-up that must not race.
 */
export async function migrateDatabase(
  database: Database,
  afterMigrate?: () => Promise<void>,
  /** Another folder of migrations: a test brings a database to an older version with it. */
  folder = migrationsFolder,
): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrateNodePg(drizzleNodePg(client), { migrationsFolder: folder });
      await afterMigrate?.();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
