import {
  allowsEverything,
  createRule,
  deleteRule,
  listRules,
  PATTERN_LIMITS,
  type PermissionRule,
  scopeOf,
  updateRule,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, iso, OrgParamsSchema } from './schemas.ts';

const tags = ['permission rules'];
const errors = { 400: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

const RuleSchema = z.object({
  rule_id: z.string(),
  tool: z.string().describe('A tool of the agent, or * for every tool'),
  pattern: z.record(z.string(), z.string()).describe('Argument path → glob; every entry must match; {} covers every call'),
  effect: z.enum(['allow', 'deny']),
  note: z.string(),
  scope: z.enum(['organization', 'user']).describe("The organization's (made by admins) or the person's own"),
  allows_everything: z.boolean().describe('Allows every call of every tool without asking: admins only'),
  created_by: z.string(),
  created_at: z.string(),
});

const RuleFields = {
  tool: z.string().trim().min(1).max(100),
  pattern: z
    .record(z.string().max(PATTERN_LIMITS.pathChars), z.string().max(PATTERN_LIMITS.globChars))
    .optional()
    .describe('Argument path ("document_id", "fields[0].name") → glob ("inv-*"); omitted: every call of the tool'),
  like_call: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "Instead of pattern: a call's arguments; the rule covers calls on the same target (its ids, names and paths, matched exactly)",
    ),
  effect: z.enum(['allow', 'deny']),
  note: z.string().max(500).optional(),
};

const toBody = (r: PermissionRule): z.infer<typeof RuleSchema> => ({
  rule_id: r.id,
  tool: r.tool,
  pattern: { ...r.pattern },
  effect: r.effect,
  note: r.note,
  scope: scopeOf(r),
  allows_everything: allowsEverything(r),
  created_by: r.createdBy,
  created_at: iso(r.createdAt),
});

const ruleInputOf = <B extends { like_call?: Record<string, unknown> }>({ like_call, ...rest }: B) => ({
  ...rest,
  ...(like_call === undefined ? {} : { likeCall: like_call }),
});

const RuleParams = OrgParamsSchema.extend({ rule_id: z.string().min(1).max(64) });

/**
 * Permission rules: standing allow or deny decisions on the agent's tool calls, the
 * organization's and each person's, decided with every call (chat, auto-create, MCP).
 */
export function permissionRuleRoutes(app: ZodApp, { db, agent }: RouteDeps): void {
  const toolNames = () => agent.engine.subjects.toolNames();

  app.get(
    '/v0/orgs/:organization_id/permission-rules',
    {
      schema: {
        summary: "The organization's rules and your own",
        tags,
        params: OrgParamsSchema,
        response: { 200: z.object({ rules: z.array(RuleSchema), tools: z.array(z.string()) }), ...errors },
      },
    },
    async (request) => ({ rules: (await listRules(db, orgOf(request))).map(toBody), tools: toolNames() }),
  );

  app.post(
    '/v0/orgs/:organization_id/permission-rules',
    {
      schema: {
        summary: 'Make a rule: yours (default) or, for admins, the organization’s',
        tags,
        params: OrgParamsSchema,
        body: z.strictObject({ ...RuleFields, scope: z.enum(['organization', 'user']).default('user') }),
        response: { 201: RuleSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(toBody(await createRule(db, orgOf(request), ruleInputOf(request.body), toolNames()))),
  );

  app.put(
    '/v0/orgs/:organization_id/permission-rules/:rule_id',
    {
      schema: {
        summary: 'Change a rule (its scope stays)',
        tags,
        params: RuleParams,
        body: z.strictObject(RuleFields),
        response: { 200: RuleSchema, ...errors },
      },
    },
    async (request) =>
      toBody(await updateRule(db, orgOf(request), request.params.rule_id, ruleInputOf(request.body), toolNames())),
  );

  app.delete(
    '/v0/orgs/:organization_id/permission-rules/:rule_id',
    {
      schema: { summary: 'Remove a rule', tags, params: RuleParams, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await deleteRule(db, orgOf(request), request.params.rule_id);
      return reply.code(204).send(null);
    },
  );
}
