import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { loginFailures } from '../db/schema.ts';
import { badSignIn, DomainError } from '../errors.ts';
import { type Account, describeAccount } from './account.ts';
import { verifyPassword } from './secrets.ts';
import { createSession, type SessionInfo } from './sessions.ts';
import { findPasswordHash, normalizeEmail } from './users.ts';

export interface LoginLimits {
  windowSeconds: number;
  failuresPerAccount: number;
  failuresPerIp: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { windowSeconds: 900, failuresPerAccount: 10, failuresPerIp: 100 };

// Compared against when the email is unknown, so that both cases cost one scrypt.
const DUMMY_HASH = ['scrypt', 16384, 8, 1, Buffer.alloc(16).toString('base64'), Buffer.alloc(64).toString('base64')].join('$');

/**
 * Checks a password login and opens a session. Failures are counted per account and per
 * client address in the database (so the limit holds across server processes); over the
 * limit, even a right password is refused until the window has passed.
 */
export async function login(
  db: Db,
  input: { email: string; password: string; ip: string },
  limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
): Promise<{ session: SessionInfo & { token: string }; account: Account }> {
  const keys = [
    { key: `account:${normalizeEmail(input.email)}`, limit: limits.failuresPerAccount },
    { key: `ip:${input.ip}`, limit: limits.failuresPerIp },
  ];
  for (const { key, limit } of keys) {
    const retryAfter = await secondsUntilAllowed(db, key, limit, limits.windowSeconds);
    if (retryAfter > 0) {
      throw new DomainError('rate_limited', `Too many failed sign-in attempts. Try again in ${retryAfter} seconds.`, {
        retryAfterSeconds: retryAfter,
      });
    }
  }

  const user = await findPasswordHash(db, input.email);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) {
    for (const { key } of keys) await recordFailure(db, key, limits.windowSeconds);
    throw badSignIn();
  }
  await db.delete(loginFailures).where(eq(loginFailures.key, keys[0]!.key));
  const session = await createSession(db, user.id);
  return { session, account: await describeAccount(db, user.id) };
}

async function secondsUntilAllowed(db: Db, key: string, limit: number, windowSeconds: number): Promise<number> {
  const [row] = await db
    .select({
      failures: loginFailures.failures,
      remaining: sql<number>`ceil(extract(epoch from (${loginFailures.windowStartedAt} + make_interval(secs => ${windowSeconds}) - now())))::int`,
    })
    .from(loginFailures)
    .where(eq(loginFailures.key, key));
  if (!row || row.failures < limit || row.remaining <= 0) return 0;
  return row.remaining;
}

async function recordFailure(db: Db, key: string, windowSeconds: number): Promise<void> {
  const expired = sql`${loginFailures.windowStartedAt} < now() - make_interval(secs => ${windowSeconds})`;
  await db
    .insert(loginFailures)
    .values({ key, failures: 1 })
    .onConflictDoUpdate({
      target: loginFailures.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${loginFailures.failures} + 1 end`,
        windowStartedAt: sql`case when ${expired} then now() else ${loginFailures.windowStartedAt} end`,
      },
    });
}
