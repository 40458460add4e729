import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, postJson, putJson } from './client';
import { orgApiPath } from './queries';

export type RuleEffect = 'allow' | 'deny';
export type RuleScope = 'organization' | 'user';

/** A standing decision on some calls of a tool: the organization's or your own. */
export interface PermissionRule {
  rule_id: string;
  /** A tool's name, or `*` for every tool. */
  tool: string;
  /** Argument path → glob; every entry must match; {} covers every call. */
  pattern: Record<string, string>;
  effect: RuleEffect;
  note: string;
  scope: RuleScope;
  allows_everything: boolean;
  created_by: string;
  created_at: string;
}

export interface RuleInput {
  tool: string;
  pattern: Record<string, string>;
  effect: RuleEffect;
  note: string;
}

const rulesPath = (orgId: string) => `${orgApiPath(orgId)}/permission-rules`;
const rulesKey = (orgId: string) => ['orgs', orgId, 'permission-rules'] as const;

/** The organization's rules and yours, with the tools a rule may name. */
export function useRulesQuery(orgId: string) {
  return useQuery({
    queryKey: rulesKey(orgId),
    queryFn: () => getJson<{ rules: PermissionRule[]; tools: string[] }>(rulesPath(orgId)),
  });
}

function useRuleChange<Input>(orgId: string, send: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rulesKey(orgId) }),
  });
}

/** A new rule: with a pattern, or with `like_call`, a call's arguments whose like it covers (the server picks what names the target). */
export type NewRule = Omit<RuleInput, 'pattern'> & { scope: RuleScope } & (
    | { pattern: Record<string, string> }
    | { like_call: unknown }
  );

export function useCreateRuleMutation(orgId: string) {
  return useRuleChange(orgId, (input: NewRule) => postJson<PermissionRule>(rulesPath(orgId), { body: input }));
}

export function useUpdateRuleMutation(orgId: string) {
  return useRuleChange(orgId, ({ ruleId, ...input }: RuleInput & { ruleId: string }) =>
    putJson<PermissionRule>(`${rulesPath(orgId)}/${encodeURIComponent(ruleId)}`, { body: input }),
  );
}

export function useDeleteRuleMutation(orgId: string) {
  return useRuleChange(orgId, (ruleId: string) => deleteNoContent(`${rulesPath(orgId)}/${encodeURIComponent(ruleId)}`));
}
