import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { DomainError } from '../errors.ts';

const VERSION = 'v1';
const INFO = 'docagent provider keys';

/**
 * Encrypts small secrets (provider API keys) for storage with a key derived from the server
 * secret: AES-256-GCM, a random nonce per value, so a database dump alone reveals nothing.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    if (serverSecret.length < 16) throw new Error('The server secret must have at least 16 characters.');
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'docagent', INFO, 32));
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, nonce.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  /** Throws when the value was sealed with another secret or altered. */
  open(sealed: string): string {
    const [version, nonce, tag, body] = sealed.split(':');
    if (version !== VERSION || !nonce || !tag || body === undefined) throw new Error('Not a sealed value.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}

/**
 * The box, or an `unavailable` error when the server has no secret: `what` (e.g. "Webhook
 * secrets") cannot be stored then; `instead` may name another way.
 */
export function requireBox(box: SecretBox | undefined, what: string, instead = ''): SecretBox {
  if (!box) {
    throw new DomainError(
      'unavailable',
      `${what} cannot be stored: the server has no secret to encrypt them with. Set DOCAGENT_SECRET (16+ random characters) on every server process and restart it${instead ? `, or ${instead}` : ''}.`,
    );
  }
  return box;
}

/** The sealed value in the clear; undefined without a box or when sealed under another server secret. */
export function tryOpen(box: SecretBox | undefined, sealed: string): string | undefined {
  if (!box) return undefined;
  try {
    return box.open(sealed);
  } catch {
    return undefined;
  }
}

/** What may be shown of a key: enough to recognise it, too little to use it. */
export function previewSecret(secret: string): string {
  return secret.length <= 8 ? '••••' : `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}
