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

export function useCreateRuleMutation(orgId: string) {
  return useRuleChange(orgId, (input: RuleInput & { scope: RuleScope }) =>
    postJson<PermissionRule>(rulesPath(orgId), { body: input }),
  );
}

export function useUpdateRuleMutation(orgId: string) {
  return useRuleChange(orgId, ({ ruleId, ...input }: RuleInput & { ruleId: string }) =>
    putJson<PermissionRule>(`${rulesPath(orgId)}/${encodeURIComponent(ruleId)}`, { body: input }),
  );
}

export function useDeleteRuleMutation(orgId: string) {
  return useRuleChange(orgId, (ruleId: string) => deleteNoContent(`${rulesPath(orgId)}/${encodeURIComponent(ruleId)}`));
}

/** A glob matching exactly this text (the server's globs treat these characters as special). */
const literalGlob = (text: string) => text.replace(/[\\*?[\]{}()!+@|]/g, (c) => `\\${c}`);

/** Arguments that name what a call works on: a rule "like this call" keeps them and lets the rest vary. */
const NAMING_ARGUMENT = /(^|_)(id|ids|revid|name|path|kind|field)$/;

/**
 * The pattern of "calls like this": the call's arguments that say what it works on (ids, names,
 * paths), each exactly as given; free text such as a new value or a description may differ.
 * A call without such arguments gets every short plain argument.
 */
export function likeThisPattern(args: unknown): Record<string, string> {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return {};
  const plain = Object.entries(args).filter(
    (entry): entry is [string, string | number | boolean] =>
      ['string', 'number', 'boolean'].includes(typeof entry[1]) && String(entry[1]).length <= 200,
  );
  const naming = plain.filter(([key]) => NAMING_ARGUMENT.test(key));
  return Object.fromEntries((naming.length > 0 ? naming : plain).map(([key, value]) => [key, literalGlob(String(value))]));
}
