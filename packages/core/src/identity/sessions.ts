import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { preparedPerDatabase } from '../db/prepared-query.ts';
import { sessions } from '../db/schema.ts';
import { badCredentials } from '../errors.ts';
import { newId } from '../ids.ts';
import { hashSecret, newSecret } from './secrets.ts';

export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

export interface SessionInfo {
  sessionId: string;
  userId: string;
  /** Sent back by the web app in a header on every unsafe request made with the cookie. */
  csrfToken: string;
  expiresAt: Date;
}

export async function createSession(db: Db, userId: string): Promise<SessionInfo & { token: string }> {
  const token = newSecret('ds');
  const row = {
    id: newId(),
    userId,
    tokenHash: hashSecret(token),
    csrfToken: newSecret('ds').slice(3),
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  };
  // Expired sessions are swept here, on the write path, rather than by a timer.
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, new Date())));
  await db.insert(sessions).values(row);
  return { sessionId: row.id, userId, csrfToken: row.csrfToken, expiresAt: row.expiresAt, token };
}

/** Every request of the web app reads its session: built once (prepared-query.ts). */
const liveSession = preparedPerDatabase((db) =>
  db
    .select()
    .from(sessions)
    .where(and(eq(sessions.tokenHash, sql.placeholder('hash')), gt(sessions.expiresAt, sql.placeholder('now')))),
);

export async function authenticateSession(db: Db, token: string): Promise<SessionInfo> {
  const [row] = await liveSession(db).execute({ hash: hashSecret(token), now: new Date() });
  if (!row) throw badCredentials();
  return { sessionId: row.id, userId: row.userId, csrfToken: row.csrfToken, expiresAt: row.expiresAt };
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}
