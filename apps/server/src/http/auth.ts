import {
  authenticateBearer,
  authenticateSession,
  badCredentials,
  type Db,
  DomainError,
  type OrgAccess,
  type Principal,
  requireOrgAccess,
} from '@docagent/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'docagent_session';
export const CSRF_HEADER = 'x-csrf-token';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    orgAccess: OrgAccess | null;
  }
  interface FastifyContextConfig {
    /** API routes that anyone may call (login, the OpenAPI document). */
    public?: boolean;
    /**
     * WebSocket routes: they authenticate with `authenticateUpgrade` and refuse with a close
     * code after the upgrade, which a browser can read (it never sees an HTTP status).
     */
    socket?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

async function resolvePrincipal(db: Db, request: FastifyRequest): Promise<Principal> {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw badCredentials();
    return authenticateBearer(db, match[1]);
  }
  const cookie = request.cookies[SESSION_COOKIE];
  if (!cookie) throw new DomainError('unauthenticated', 'Sign in, or send an API token as "Authorization: Bearer <token>".');
  const session = await authenticateSession(db, cookie);
  // A cookie rides along on requests other sites make; the header proves the page is ours.
  if (!SAFE_METHODS.has(request.method) && request.headers[CSRF_HEADER] !== session.csrfToken) {
    throw new DomainError('forbidden', `Missing or wrong ${CSRF_HEADER} header. Reload the page and try again.`);
  }
  return { kind: 'session', ...session };
}

/**
 * Authentication and organization membership for every API route, in one hook: a route
 * under /v0/ is public only if it says so, and any route with an `organization_id`
 * parameter is reached only by members of that organization (others get 404). Outside
 * /v0/ are only the health check and the web app's files, which hold nothing private.
 */
export function registerAuth(app: FastifyInstance, db: Db): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('orgAccess', null);
  // onRequest, before the body is read: strangers learn nothing from validation errors.
  app.addHook('onRequest', async (request) => {
    const { url, config } = request.routeOptions;
    if (!url?.startsWith('/v0/') || config.public || config.socket) return;
    request.principal = await resolvePrincipal(db, request);
    const orgId = (request.params as Record<string, string> | undefined)?.organization_id;
    if (orgId !== undefined) request.orgAccess = await requireOrgAccess(db, request.principal, orgId);
  });
}

/**
 * Who opens a WebSocket and their access to the organization in its path, by the same rules as
 * every route: an API token offered as the subprotocols `bearer, <token>` (a browser cannot set
 * the Authorization header on a WebSocket), else the Authorization header or the session cookie
 * (an upgrade is a GET, so no CSRF header). Throws the domain error a route would answer with.
 */
export async function authenticateUpgrade(db: Db, request: FastifyRequest, offeredToken: string | undefined): Promise<OrgAccess> {
  request.principal =
    offeredToken === undefined ? await resolvePrincipal(db, request) : await authenticateBearer(db, offeredToken);
  const orgId = (request.params as Record<string, string> | undefined)?.organization_id;
  if (orgId === undefined) throw new Error(`socket route ${request.routeOptions.url} has no organization_id parameter`);
  request.orgAccess = await requireOrgAccess(db, request.principal, orgId);
  return request.orgAccess;
}

/**
 * The organization an API token acts in, for routes outside /v0/orgs/ that serve one organization
 * (the MCP endpoint): the token names it. A session is refused: a program is given a token.
 */
export async function authenticateOrgToken(db: Db, request: FastifyRequest): Promise<OrgAccess> {
  if (request.headers.authorization === undefined) {
    throw new DomainError(
      'unauthenticated',
      'Send an API token of the organization as "Authorization: Bearer <token>" (Settings → API tokens makes one).',
    );
  }
  const principal = await resolvePrincipal(db, request);
  if (principal.kind !== 'api_token') {
    throw new DomainError('forbidden', 'This endpoint takes an API token of an organization (da_…), not a sign-in session.');
  }
  request.principal = principal;
  request.orgAccess = await requireOrgAccess(db, principal, principal.orgId);
  return request.orgAccess;
}

/** The authenticated principal of a non-public route (the hook guarantees it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} used principalOf without authentication`);
  return request.principal;
}

/** The checked organization access of a route with an `organization_id` parameter. */
export function orgOf(request: FastifyRequest): OrgAccess {
  if (!request.orgAccess) throw new Error(`route ${request.routeOptions.url} used orgOf without an organization_id parameter`);
  return request.orgAccess;
}

/** The signed-in user behind the principal; organization-level tokens have none. */
export function userIdOf(request: FastifyRequest): string {
  const principal = principalOf(request);
  if (principal.userId === null) {
    throw new DomainError(
      'forbidden',
      'This API token belongs to an organization, not to a user; use a user’s token or sign in.',
    );
  }
  return principal.userId;
}
