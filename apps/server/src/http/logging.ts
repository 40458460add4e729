import type { FastifyRequest } from 'fastify';

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
