import { type Db, isDomainError, type OrgAccess } from '@docagent/core';
import type { FastifyRequest } from 'fastify';
import { authenticateUpgrade } from '../http/auth.ts';

/**
 * Who may open the agent's WebSocket. The check runs before the upgrade (so no message can come
 * before it); a refusal is told after it, as a close code, because a browser never sees the
 * HTTP status of a refused upgrade.
 */

/** The subprotocol that carries an API token: the client offers `bearer, <token>`, the server answers `bearer`. */
export const BEARER_PROTOCOL = 'bearer';

/** Close codes of a refused socket: 4401 not signed in (or a wrong token), 4403 not a member of the path's organization. */
export const CLOSE_UNAUTHENTICATED = 4401;
export const CLOSE_NOT_MEMBER = 4403;

export type SocketAdmission = { ok: true; access: OrgAccess } | { ok: false; code: number; reason: string };

/** The offered subprotocols, in order. */
const protocolsOf = (request: FastifyRequest): string[] =>
  String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);

/** The API token offered as `bearer, <token>`; '' when `bearer` came without one; undefined when no bearer was offered. */
export function offeredToken(request: FastifyRequest): string | undefined {
  const protocols = protocolsOf(request);
  const at = protocols.indexOf(BEARER_PROTOCOL);
  return at < 0 ? undefined : (protocols[at + 1] ?? '');
}

/** For ws's `handleProtocols`: the token itself is never echoed back. */
export const chooseProtocol = (protocols: Set<string>): string | false =>
  protocols.has(BEARER_PROTOCOL) ? BEARER_PROTOCOL : false;

/**
 * A page of another site may open a socket to us and the browser adds our cookie: a socket signed
 * in by cookie must come from a page of ours (the Origin a browser always sends names our host, or
 * PUBLIC_URL). Clients that are not browsers send no Origin.
 */
function fromOurPage(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const ours = [request.headers.host, request.host, publicUrl ? new URL(publicUrl).host : undefined];
  return ours.includes(host);
}

/** Checks the credentials of an upgrade and the membership of the organization in its path. */
export async function admitSocket(db: Db, request: FastifyRequest, publicUrl: string | undefined): Promise<SocketAdmission> {
  const token = offeredToken(request);
  const byCookie = token === undefined && request.headers.authorization === undefined;
  if (byCookie && !fromOurPage(request, publicUrl)) {
    return { ok: false, code: CLOSE_UNAUTHENTICATED, reason: 'The session cookie is only taken from pages of this server.' };
  }
  if (token === '') return { ok: false, code: CLOSE_UNAUTHENTICATED, reason: 'The bearer subprotocol came without a token.' };
  try {
    return { ok: true, access: await authenticateUpgrade(db, request, token) };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    // Like the HTTP routes, another organization is "not found": the code does not say whether it exists.
    const code = error.kind === 'not_found' || error.kind === 'forbidden' ? CLOSE_NOT_MEMBER : CLOSE_UNAUTHENTICATED;
    return { ok: false, code, reason: closeReason(error.message) };
  }
}

/** A close reason may hold at most 123 bytes. */
export function closeReason(text: string): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= 123) return text;
  return `${bytes
    .subarray(0, 120)
    .toString()
    .replace(/\uFFFD+$/, '')}…`;
}
