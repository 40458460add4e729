import { activeTraceIds, withoutUserContent } from '@docagent/core';
import type { FastifyRequest } from 'fastify';
import { type LoggerOptions, stdSerializers } from 'pino';

/** Header paths pino replaces before a log line is written. */
export const logRedaction = {
  paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'],
  censor: '[redacted]',
};

const SECRET_PARAMS = /([?&](?:token|password|api_key|key|secret)=)[^&]*/gi;

/** The request as logged: secrets in the query string (the MCP token lookup has one) masked. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(SECRET_PARAMS, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/**
 * Errors as logged, their causes too: a failed statement keeps its SQL text and the database's
 * message, never the values it was given (a conversation, a document's text, a preference); a
 * failed provider call never its request body.
 */
export const serializeError = (error: Error) => stdSerializers.err(withoutUserContent(error));

/**
 * The configuration of every logger of ours: the server's (fastify) and the worker's. Request
 * bodies are never logged: the request serializer takes the method, URL and addresses only. A
 * line written inside a traced span carries `trace_id` and `span_id`, to find its trace from it.
 */
export const loggerOptions = (level: string) =>
  ({
    level,
    redact: logRedaction,
    serializers: { req: serializeRequest, err: serializeError },
    mixin: () => activeTraceIds() ?? {},
  }) satisfies LoggerOptions;
