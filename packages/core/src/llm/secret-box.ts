import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

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

/** What may be shown of a key: enough to recognise it, too little to use it. */
export function previewSecret(secret: string): string {
  return secret.length <= 8 ? '••••' : `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}
