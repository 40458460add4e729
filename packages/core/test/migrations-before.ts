import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, migrateDatabase, migrationsFolder, openDatabase } from '../src/index.ts';
import { createTestDatabaseTarget } from '../src/testing/test-database.ts';

/**
 * A fresh test database migrated up to just before `tag`: a test writes rows as the code of
 * then did, migrates the rest with `migrateDatabase`, and checks what became of them.
 */
export async function databaseBefore(tag: string): Promise<{ database: Database; close: () => Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), 'docagent-migrations-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  if (cut === -1) throw new Error(`No migration is tagged ${tag}.`);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalPath, JSON.stringify(journal));

  const created = await createTestDatabaseTarget({ empty: true });
  const database = await openDatabase(created.target, 'test');
  try {
    await migrateDatabase(database, undefined, folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return {
    database,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}
