import { pingDatabase } from '@docagent/core';
import { z } from 'zod';
import type { RouteDeps, ZodApp } from '../http/types.ts';

export function healthRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness and database reachability',
        response: {
          200: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
          503: z.object({ status: z.literal('unavailable'), database: z.literal('unreachable') }),
        },
      },
    },
    async (request, reply) => {
      try {
        await pingDatabase(db);
        return { status: 'ok' as const, database: 'ok' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable');
        return reply.code(503).send({ status: 'unavailable' as const, database: 'unreachable' as const });
      }
    },
  );
}
