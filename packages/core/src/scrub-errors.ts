import { DrizzleQueryError } from 'drizzle-orm';

/**
 * Fields by which libraries attach user content (a conversation, a document's text, a preference)
 * to their errors, which must reach neither logs nor job records: a failed statement's values
 * (`params` on Drizzle's and PGlite's errors, `parameters` on other clients', and PostgreSQL's
 * `detail`, which quotes the offending row or key) and a failed provider call's request body (the
 * AI SDK's `requestBodyValues`, the whole conversation).
 */
const CONTENT_FIELDS = new Set(['params', 'parameters', 'detail', 'requestBodyValues']);

/**
 * A copy of the error and its `cause` chain without user content: a failed statement keeps its SQL
 * text and the database's message. Drizzle also writes the values into its message and stack
 * ("Failed query: …\nparams: …"); they are cut out there too. Anything but an Error is returned as is.
 */
export function withoutUserContent<T>(error: T): T {
  return scrubbed(error, new Map()) as T;
}

function scrubbed(value: unknown, copies: Map<Error, Error>): unknown {
  if (!(value instanceof Error)) return value;
  const done = copies.get(value);
  if (done) return done;
  const copy: Error = Object.create(Object.getPrototypeOf(value));
  copies.set(value, copy);
  const params = (value as { params?: unknown }).params;
  const embedded = params === undefined ? undefined : `\nparams: ${params}`;
  const scrub = (text: string | undefined) => (embedded && text ? text.replace(embedded, '') : text);
  const source = value as unknown as Record<string, unknown>;
  const target = copy as unknown as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (!CONTENT_FIELDS.has(key) && key !== 'cause') target[key] = source[key];
  }
  // message and stack are not enumerable (the stack is an accessor on Node 24): read them, keep them hidden.
  for (const [key, text] of [
    ['message', scrub(value.message)],
    ['stack', scrub(value.stack)],
  ] as const) {
    Object.defineProperty(copy, key, { value: text, writable: true, configurable: true, enumerable: false });
  }
  if ('cause' in value) {
    Object.defineProperty(copy, 'cause', {
      value: scrubbed(value.cause, copies),
      writable: true,
      configurable: true,
      enumerable: Object.getOwnPropertyDescriptor(value, 'cause')?.enumerable ?? false,
    });
  }
  return copy;
}

/** Why an operation failed, for a person: for a failed statement the database's own words, without the statement. */
export function failureMessage(error: unknown): string {
  if (error instanceof DrizzleQueryError && error.cause instanceof Error) return failureMessage(error.cause);
  return error instanceof Error ? withoutUserContent(error).message : String(error);
}
