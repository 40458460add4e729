import type { Db } from '../db/database.ts';
import { forbidden, notFound } from '../errors.ts';
import { authenticateApiToken } from './api-tokens.ts';
import {
  findMembershipRole,
  getOrganization,
  listOrganizationsOfUser,
  type OrganizationMembership,
  type Role,
} from './organizations.ts';
import { authenticateSession } from './sessions.ts';
import { getUser } from './users.ts';

/** Who is making a request: a signed-in user, or an organization's API token. */
export type Principal =
  | { kind: 'session'; userId: string; sessionId: string; csrfToken: string }
  | {
      kind: 'api_token';
      tokenId: string;
      orgId: string;
      userId: string | null;
      /** The user's role in the token's organization, read with the token (null: no longer a member). */
      creatorRole: Role | null;
    };

export interface OrgAccess {
  orgId: string;
  role: Role;
  /** The acting user; null for an organization token made at the command line. */
  userId: string | null;
  /**
   * Who changes are recorded as (a revision's created_by) when no user acts, e.g. the headless
   * auto-create agent, whose creations are found again by this name.
   */
  actor?: string;
}

/** Resolves a bearer secret: `da_` API tokens and `ds_` session tokens. */
export async function authenticateBearer(db: Db, secret: string): Promise<Principal> {
  if (secret.startsWith('ds_')) {
    const session = await authenticateSession(db, secret);
    return { kind: 'session', ...session };
  }
  const token = await authenticateApiToken(db, secret);
  return {
    kind: 'api_token',
    tokenId: token.tokenId,
    orgId: token.orgId,
    userId: token.createdBy,
    creatorRole: token.creatorRole,
  };
}

/**
 * The one membership check every org route goes through. Anything the principal may not
 * see answers "not found", so nobody learns that another organization's id exists.
 * A user's token acts with that user's current role, and dies with their membership.
 */
export async function requireOrgAccess(db: Db, principal: Principal, orgId: string): Promise<OrgAccess> {
  // Made only when thrown: an error's stack costs every request that gets in.
  const hidden = () => notFound(`Organization ${orgId}`);
  if (principal.kind === 'api_token') {
    if (principal.orgId !== orgId) throw hidden();
    if (principal.userId === null) return { orgId, role: 'admin', userId: null };
    // The membership was read with the token, in this request.
    if (principal.creatorRole === null) throw hidden();
    return { orgId, role: principal.creatorRole, userId: principal.userId };
  }
  const role = await findMembershipRole(db, orgId, principal.userId);
  if (!role) throw hidden();
  return { orgId, role, userId: principal.userId };
}

/** The organizations a principal can act in: a user's memberships, or a token's one org. */
export async function listAccessibleOrganizations(db: Db, principal: Principal): Promise<OrganizationMembership[]> {
  if (principal.kind === 'session') return listOrganizationsOfUser(db, principal.userId);
  const access = await requireOrgAccess(db, principal, principal.orgId).catch(() => undefined);
  if (!access) return [];
  const org = await getOrganization(db, access.orgId);
  return [{ id: org.id, name: org.name, role: access.role }];
}

/** How an actor is shown on what it made (uploaded_by, created_by): the user's email, or the organization token. */
export async function actorName(db: Db, access: OrgAccess): Promise<string> {
  if (access.actor !== undefined) return access.actor;
  if (access.userId === null) return 'organization API token';
  return (await getUser(db, access.userId)).email;
}

/** Refuses anyone but the organization's admins, saying `message` (who may do what, and whom to ask). */
export function requireAdmin(access: OrgAccess, message: string): void {
  if (access.role !== 'admin') throw forbidden(message);
}
