import { deleteSession, login } from '@docagent/core';
import { z } from 'zod';
import { principalOf, SESSION_COOKIE } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { AccountSchema, toAccountBody } from './account.ts';
import { ErrorBodySchema } from './schemas.ts';

const LoginBodySchema = z.strictObject({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
});

export function authRoutes(app: ZodApp, { db, config }: RouteDeps): void {
  const secure = config.publicUrl?.startsWith('https://') ?? false;

  app.post(
    '/v0/auth/login',
    {
      config: { public: true },
      schema: {
        summary: 'Sign in with email and password; sets the session cookie',
        tags: ['auth'],
        body: LoginBodySchema,
        response: { 200: AccountSchema, 401: ErrorBodySchema, 429: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const { session, account } = await login(db, { ...request.body, ip: request.ip });
      reply.setCookie(SESSION_COOKIE, session.token, {
        httpOnly: true,
        sameSite: 'lax',
        secure,
        path: '/',
        expires: session.expiresAt,
      });
      return toAccountBody(account, session.csrfToken);
    },
  );

  app.post(
    '/v0/auth/logout',
    { schema: { summary: 'End the current session', tags: ['auth'], response: { 204: z.null() } } },
    async (request, reply) => {
      const principal = principalOf(request);
      if (principal.kind === 'session') await deleteSession(db, principal.sessionId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.code(204).send(null);
    },
  );
}
