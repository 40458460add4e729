import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { userPreferences } from '../db/schema.ts';
import { invalidInput } from '../errors.ts';

/** Limits that keep preferences what they are for: a few small settings, not storage. */
export const PREFERENCE_LIMITS = { keys: 50, valueBytes: 16 * 1024 };
export const PREFERENCE_KEY = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** A person's preferences, by key. */
export async function listPreferences(db: Db, userId: string): Promise<Record<string, unknown>> {
  const rows = await db
    .select({ key: userPreferences.key, value: userPreferences.value })
    .from(userPreferences)
    .where(eq(userPreferences.userId, userId));
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

/** Sets one preference (the last write wins); refuses a value over the size limit and keys beyond the count limit. */
export async function setPreference(db: Db, userId: string, key: string, value: unknown): Promise<void> {
  if (!PREFERENCE_KEY.test(key)) {
    throw invalidInput(
      `Preference key "${key.slice(0, 80)}" is not valid: use 1 to 64 lower-case letters, digits, dots, dashes or underscores.`,
    );
  }
  const json = JSON.stringify(value ?? null);
  const bytes = Buffer.byteLength(json);
  if (bytes > PREFERENCE_LIMITS.valueBytes) {
    throw invalidInput(
      `Preference "${key}" is ${bytes} bytes; a preference holds at most ${PREFERENCE_LIMITS.valueBytes}. Store less in it.`,
    );
  }
  await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ n: count() })
      .from(userPreferences)
      .where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, key)));
    if (!existing?.n) {
      const [all] = await tx.select({ n: count() }).from(userPreferences).where(eq(userPreferences.userId, userId));
      if ((all?.n ?? 0) >= PREFERENCE_LIMITS.keys) {
        throw invalidInput(`A person keeps at most ${PREFERENCE_LIMITS.keys} preferences; "${key}" would be one more.`);
      }
    }
    await tx
      .insert(userPreferences)
      // As JSON text: a JSON null would otherwise be bound as SQL NULL.
      .values({ userId, key, value: sql`${json}::jsonb` })
      .onConflictDoUpdate({
        target: [userPreferences.userId, userPreferences.key],
        set: { value: sql`excluded.value`, updatedAt: sql`now()` },
      });
  });
}
