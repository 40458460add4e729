import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { preparedPerDatabase } from '../db/prepared-query.ts';
import { apiTokens, memberships, users } from '../db/schema.ts';
import { badCredentials, forbidden, invalidInput, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Role } from './organizations.ts';
import { hashSecret, newSecret } from './secrets.ts';

export interface ApiTokenInfo {
  id: string;
  orgId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdBy: { id: string; email: string } | null;
}

export interface CreatedApiToken {
  id: string;
  orgId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  /** The secret itself; it exists only in this return value and is never stored. */
  token: string;
}

// Writing last_used_at on every request would turn each read into a write.
const LAST_USED_RESOLUTION_MS = 60_000;

export async function createApiToken(
  db: Db,
  input: { orgId: string; name: string; createdBy: string | null },
): Promise<CreatedApiToken> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) throw invalidInput('A token name must have 1 to 100 characters.');
  const token = newSecret('da');
  const [row] = await db
    .insert(apiTokens)
    .values({
      id: newId(),
      orgId: input.orgId,
      createdBy: input.createdBy,
      name,
      tokenHash: hashSecret(token),
      prefix: token.slice(0, 10),
    })
    .returning();
  if (!row) throw new Error('insert into api_tokens returned no row');
  return { id: row.id, orgId: row.orgId, name: row.name, prefix: row.prefix, createdAt: row.createdAt, token };
}

export async function listApiTokens(db: Db, orgId: string): Promise<ApiTokenInfo[]> {
  const rows = await db
    .select({ token: apiTokens, creatorEmail: users.email })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .where(eq(apiTokens.orgId, orgId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map(({ token, creatorEmail }) => ({
    id: token.id,
    orgId: token.orgId,
    name: token.name,
    prefix: token.prefix,
    createdAt: token.createdAt,
    lastUsedAt: token.lastUsedAt,
    revokedAt: token.revokedAt,
    createdBy: token.createdBy && creatorEmail ? { id: token.createdBy, email: creatorEmail } : null,
  }));
}

/**
 * Revokes a token. `actor` is who asks: an org admin may revoke any token of the org, a
 * member only their own; null means an operator at the command line.
 */
export async function revokeApiToken(
  db: Db,
  input: { tokenId: string; orgId?: string; actor: { userId: string | null; role: Role } | null },
): Promise<void> {
  const [row] = await db
    .select({ id: apiTokens.id, orgId: apiTokens.orgId, createdBy: apiTokens.createdBy, revokedAt: apiTokens.revokedAt })
    .from(apiTokens)
    .where(
      input.orgId ? and(eq(apiTokens.id, input.tokenId), eq(apiTokens.orgId, input.orgId)) : eq(apiTokens.id, input.tokenId),
    );
  if (!row) throw notFound(`API token ${input.tokenId}`);
  const { actor } = input;
  if (actor && actor.role !== 'admin' && row.createdBy !== actor.userId) {
    throw forbidden('Only an organization admin or the token’s creator can revoke it.');
  }
  if (row.revokedAt) return;
  await db.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, row.id));
}

/**
 * Every API request reads its token: built once (prepared-query.ts). With it, its creator's current
 * role in its organization, which every request of a user's token checks next (requireOrgAccess):
 * one round trip instead of two.
 */
const liveToken = preparedPerDatabase((db) =>
  db
    .select({
      id: apiTokens.id,
      orgId: apiTokens.orgId,
      createdBy: apiTokens.createdBy,
      lastUsedAt: apiTokens.lastUsedAt,
      creatorRole: memberships.role,
    })
    .from(apiTokens)
    .leftJoin(memberships, and(eq(memberships.orgId, apiTokens.orgId), eq(memberships.userId, apiTokens.createdBy)))
    .where(and(eq(apiTokens.tokenHash, sql.placeholder('hash')), isNull(apiTokens.revokedAt))),
);

/**
 * The live token behind a secret, recording its use; throws the generic credential error otherwise.
 * `creatorRole`: its creator's role in its organization now, null when they are no member (or it
 * was made at the command line, with no creator).
 */
export async function authenticateApiToken(
  db: Db,
  secret: string,
): Promise<{ tokenId: string; orgId: string; createdBy: string | null; creatorRole: Role | null }> {
  const [row] = await liveToken(db).execute({ hash: hashSecret(secret) });
  if (!row) throw badCredentials();
  // Most requests find the use recorded recently enough and send no write at all.
  const staleBefore = new Date(Date.now() - LAST_USED_RESOLUTION_MS);
  if (row.lastUsedAt === null || row.lastUsedAt < staleBefore) {
    await db.update(apiTokens).set({ lastUsedAt: sql`now()` }).where(eq(apiTokens.id, row.id));
  }
  return { tokenId: row.id, orgId: row.orgId, createdBy: row.createdBy, creatorRole: row.creatorRole };
}
