/**
 * Domain errors. Each kind maps to exactly one HTTP status in the server's error handler;
 * below the server they carry no HTTP notion, only what went wrong and what to do.
 */
export type DomainErrorKind =
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable'
  /** The organization's LLM spending limit is reached. */
  | 'usage_limit'
  /** A service we depend on (an LLM provider) failed after our retries. */
  | 'upstream_failed';

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  /** Seconds a client should wait before trying again (rate_limited only). */
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: DomainErrorKind, message: string, options?: { retryAfterSeconds?: number; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = 'DomainError';
    this.kind = kind;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

export const invalidInput = (message: string) => new DomainError('invalid_input', message);
export const notFound = (what: string) => new DomainError('not_found', `${what} was not found.`);
export const conflict = (message: string) => new DomainError('conflict', message);
export const tooLarge = (message: string) => new DomainError('too_large', message);
export const usageLimitReached = (message: string) => new DomainError('usage_limit', message);
export const upstreamFailed = (message: string, cause?: unknown) => new DomainError('upstream_failed', message, { cause });
export const forbidden = (message: string) => new DomainError('forbidden', message);

/** One message for every credential failure, so a caller cannot tell which part was wrong. */
export const badCredentials = () =>
  new DomainError('unauthenticated', 'Invalid credentials. Sign in again or use a valid API token.');

/** A sign-in with a wrong email or password: one message for both, said for a person at the form. */
export const badSignIn = () =>
  new DomainError('unauthenticated', 'The email or the password is wrong. Check both and try again.');

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
