import { type DomainErrorKind, InvalidSchemaError, isDomainError } from '@docagent/core';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { withSecurityHeaders } from './security-headers.ts';

/** The one place where a domain error becomes an HTTP status. */
const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  usage_limit: 402,
  upstream_failed: 502,
};

export interface ErrorBody {
  detail: string;
  code: string;
  /** For an invalid schema: each problem with its path, for an editor to point at. */
  errors?: Array<{ path: string; message: string }>;
}

/**
 * A malformed multipart body, as @fastify/busboy reports it: plain Errors with no code or
 * status, so their messages are all there is to recognize them by.
 */
function describeMalformedMultipart(error: Error): string | undefined {
  const { message } = error;
  if (message === 'Multipart: Boundary not found') {
    return 'The multipart/form-data Content-Type has no boundary parameter; let your HTTP client build the form (it adds one).';
  }
  if (message.startsWith('The needle cannot')) {
    return 'The multipart boundary is too long (RFC 2046 allows at most 70 characters); let your HTTP client build the form.';
  }
  if (/unexpected end of multipart data$/i.test(message)) {
    return 'The multipart body ended before its closing boundary (a part is unterminated or the upload was cut); send the whole form again.';
  }
  return undefined;
}

function describeValidation(error: FastifyError): string {
  const where = error.validationContext ?? 'body';
  const issues = (error.validation ?? []).map((v) => {
    const path = [
      where,
      ...String(v.instancePath ?? '')
        .split('/')
        .filter(Boolean),
    ].join('.');
    const params = v.params as { issue?: { code?: string; keys?: string[] } } | undefined;
    if (params?.issue?.code === 'unrecognized_keys') return `${where}: unknown field(s) ${params.issue.keys?.join(', ')}`;
    return `${path}: ${v.message}`;
  });
  return `Invalid request: ${issues.join('; ')}.`;
}

/**
 * Fastify's router refuses some URLs before any hook or route runs (bad percent-encoding, a
 * path parameter past its length limit); they get our body and headers like every other error.
 */
export function answerFrameworkError(error: FastifyError, reply: FastifyReply): void {
  const detail =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The URL is not valid: a part of its path is not percent-encoded UTF-8. Encode path parts with encodeURIComponent.'
      : error.message;
  withSecurityHeaders(reply)
    .code(error.statusCode ?? 400)
    .send({ detail, code: error.code ?? 'bad_request' } satisfies ErrorBody);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isDomainError(error)) {
      if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
      const body: ErrorBody = { detail: error.message, code: error.kind };
      if (error instanceof InvalidSchemaError) body.errors = error.problems;
      return reply.code(STATUS_OF[error.kind]).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ detail: describeValidation(error), code: 'invalid_input' } satisfies ErrorBody);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.code(500).send({ detail: 'Internal error. The request id is in the x-request-id header.', code: 'internal' });
    }
    const malformedMultipart = describeMalformedMultipart(error);
    if (malformedMultipart) {
      return reply.code(400).send({ detail: malformedMultipart, code: 'invalid_input' } satisfies ErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply
        .code(500)
        .send({ detail: 'Internal error. The request id is in the x-request-id header.', code: 'internal' } satisfies ErrorBody);
    }
    // Fastify's own 4xx: malformed JSON, body too large, unsupported media type, ...
    const detail =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? `The request body is larger than the limit of ${app.initialConfig.bodyLimit} bytes.`
        : error.message;
    return reply.code(status).send({ detail, code: error.code ?? 'bad_request' } satisfies ErrorBody);
  });
}
