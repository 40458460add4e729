import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Header names a delivery carries (lower case, as Node's HTTP server presents them). */
export const WEBHOOK_HEADERS = {
  id: 'docagent-webhook-id',
  timestamp: 'docagent-webhook-timestamp',
  signature: 'docagent-webhook-signature',
} as const;

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: 32 random bytes, prefixed so it is recognisable in a password manager or a leak scan. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * `v1=` and the hex HMAC-SHA256 of `<timestamp>.<raw body>` keyed with the secret (as UTF-8).
 * The timestamp is signed with the body so a captured request cannot be replayed later as new.
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The headers of one attempt: signed at `now` (unix seconds), so a resent delivery carries a fresh timestamp. */
export function webhookHeaders(secret: string, eventId: string, body: string, now: number): Record<string, string> {
  const timestamp = Math.floor(now);
  return {
    'content-type': 'application/json',
    [WEBHOOK_HEADERS.id]: eventId,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signWebhook(secret, timestamp, body),
  };
}

/**
 * What a receiver does (the README's recipe): the signature matches and the timestamp is within
 * `toleranceSeconds` of `now`. Compared in constant time so the check leaks nothing of the secret.
 */
export function verifyWebhookSignature(input: {
  secret: string;
  body: string;
  timestamp: string;
  signature: string;
  now?: number;
  toleranceSeconds?: number;
}): boolean {
  const timestamp = Number(input.timestamp);
  if (!Number.isInteger(timestamp)) return false;
  const now = input.now ?? Date.now() / 1000;
  if (Math.abs(now - timestamp) > (input.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signWebhook(input.secret, timestamp, input.body));
  const given = Buffer.from(input.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
