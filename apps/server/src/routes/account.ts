import {
  type Account,
  authenticateApiToken,
  changePassword,
  describeAccount,
  listPreferences,
  MIN_PASSWORD_LENGTH,
  PREFERENCE_LIMITS,
  setPreference,
} from '@docagent/core';
import { z } from 'zod';
import { principalOf, userIdOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, OrganizationSchema } from './schemas.ts';

export const AccountSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), must_change_password: z.boolean() }),
  organizations: z.array(OrganizationSchema),
  /** Present for cookie sessions: the value the web app sends in the x-csrf-token header. */
  csrf_token: z.string().nullable(),
});

export function toAccountBody(account: Account, csrfToken: string | null): z.infer<typeof AccountSchema> {
  const { user } = account;
  return {
    user: { id: user.id, email: user.email, name: user.name, must_change_password: user.mustChangePassword },
    organizations: account.organizations,
    csrf_token: csrfToken,
  };
}

const ChangePasswordBodySchema = z.strictObject({
  current_password: z.string().min(1).max(1024),
  new_password: z.string().min(MIN_PASSWORD_LENGTH).max(1024),
});

const PreferencesBodySchema = z.object({ preferences: z.record(z.string(), z.unknown()) });
const PreferenceParamsSchema = z.object({ key: z.string().min(1).max(64) });
const PreferenceBodySchema = z.strictObject({
  value: z
    .unknown()
    .refine((value) => value !== undefined, 'value is required (any JSON value, null included)')
    .describe(`Any JSON value, at most ${PREFERENCE_LIMITS.valueBytes} bytes`),
});

export function accountRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.get(
    '/v0/account/preferences',
    {
      schema: {
        summary: 'What the web app remembers for the signed-in user (panel layout, chat settings), by key',
        tags: ['account'],
        response: { 200: PreferencesBodySchema },
      },
    },
    async (request) => ({ preferences: await listPreferences(db, userIdOf(request)) }),
  );

  app.put(
    '/v0/account/preferences/:key',
    {
      schema: {
        summary: `Set one preference of the signed-in user (at most ${PREFERENCE_LIMITS.keys} keys)`,
        tags: ['account'],
        params: PreferenceParamsSchema,
        body: PreferenceBodySchema,
        response: { 204: z.null(), 400: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      await setPreference(db, userIdOf(request), request.params.key, request.body.value);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v0/account/me',
    { schema: { summary: 'The signed-in user and their organizations', tags: ['account'], response: { 200: AccountSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const account = await describeAccount(db, userIdOf(request));
      return toAccountBody(account, principal.kind === 'session' ? principal.csrfToken : null);
    },
  );

  app.post(
    '/v0/account/password',
    {
      schema: {
        summary: 'Change the signed-in user’s password',
        tags: ['account'],
        body: ChangePasswordBodySchema,
        response: { 204: z.null(), 400: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      await changePassword(db, userIdOf(request), request.body.current_password, request.body.new_password);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v0/account/token/organization',
    {
      // The token in the query is itself the credential (DocRouter's MCP client calls this).
      config: { public: true },
      schema: {
        summary: 'The organization an API token belongs to',
        tags: ['account'],
        querystring: z.object({ token: z.string().min(1).max(200) }),
        response: { 200: z.object({ organization_id: z.string() }), 401: ErrorBodySchema },
      },
    },
    async (request) => {
      const { orgId } = await authenticateApiToken(db, request.query.token);
      return { organization_id: orgId };
    },
  );
}
