import { addMember, changeMemberRole, listMembers, type Member, removeMember } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, iso, OrgParamsSchema } from './schemas.ts';

/** Who is in an organization and with which role; admins only, as every change here is an admin's. */

const RoleSchema = z.enum(['admin', 'user']);

const MemberSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
  must_change_password: z.boolean().describe('True until they sign in and replace their one-time password'),
  joined_at: z.string(),
});

const MemberParamsSchema = OrgParamsSchema.extend({ user_id: z.string().min(1).max(64) });

const toBody = (m: Member): z.infer<typeof MemberSchema> => ({
  user_id: m.userId,
  email: m.email,
  name: m.name,
  role: m.role,
  must_change_password: m.mustChangePassword,
  joined_at: iso(m.joinedAt),
});

const errors = { 400: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };

export function memberRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.get(
    '/v0/orgs/:organization_id/members',
    {
      schema: {
        summary: "The organization's members and their roles (admins)",
        tags: ['organizations'],
        params: OrgParamsSchema,
        response: { 200: z.object({ members: z.array(MemberSchema) }), ...errors },
      },
    },
    async (request) => ({ members: (await listMembers(db, orgOf(request))).map(toBody) }),
  );

  app.post(
    '/v0/orgs/:organization_id/members',
    {
      schema: {
        summary:
          'Add a person by email (admins): an existing account joins; otherwise one is created with a one-time password, in this response only, to be replaced at the first sign-in',
        tags: ['organizations'],
        params: OrgParamsSchema,
        body: z.strictObject({
          email: z.string().trim().min(1).max(320),
          role: RoleSchema.default('user'),
          name: z.string().trim().max(200).optional().describe('For an account created here'),
        }),
        response: {
          201: z.object({
            member: MemberSchema,
            created_user: z.boolean(),
            one_time_password: z.string().nullable().describe('Set when the account was created: shown once, never stored'),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const added = await addMember(db, orgOf(request), request.body);
      return reply.code(201).send({
        member: toBody(added.member),
        created_user: added.oneTimePassword !== null,
        one_time_password: added.oneTimePassword,
      });
    },
  );

  app.patch(
    '/v0/orgs/:organization_id/members/:user_id',
    {
      schema: {
        summary: "Change a member's role (admins); the last admin cannot be made a user",
        tags: ['organizations'],
        params: MemberParamsSchema,
        body: z.strictObject({ role: RoleSchema }),
        response: { 200: MemberSchema, ...errors },
      },
    },
    async (request) => toBody(await changeMemberRole(db, orgOf(request), request.params.user_id, request.body.role)),
  );

  app.delete(
    '/v0/orgs/:organization_id/members/:user_id',
    {
      schema: {
        summary: 'Remove a member from the organization (admins); the last admin cannot be removed. Their account stays.',
        tags: ['organizations'],
        params: MemberParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await removeMember(db, orgOf(request), request.params.user_id);
      return reply.code(204).send(null);
    },
  );
}
