import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { ErrorBody } from '../http/errors.ts';
import type { ZodApp } from '../http/types.ts';

const isApiPath = (url: string) => url === '/health' || url.startsWith('/v0/') || url === '/v0';

/**
 * Serves the built web app and answers every other unknown GET with its index.html, so
 * that client-side routes survive a reload. Unknown API paths stay JSON 404s.
 */
export async function webAppRoutes(app: ZodApp, webDistDir: string): Promise<void> {
  const hasBuild = existsSync(join(webDistDir, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, { root: webDistDir, wildcard: false, index: false, serve: true });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (request.method === 'GET' && !isApiPath(path)) {
      if (hasBuild) return reply.type('text/html').sendFile('index.html');
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app has not been built. Run "npm start" (it builds it) or "npm run build -w @docagent/web".');
    }
    return reply.code(404).send({ detail: `No route ${request.method} ${path}.`, code: 'not_found' } satisfies ErrorBody);
  });
}
