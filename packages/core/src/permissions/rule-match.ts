import type { PermissionRule, RuleEffect } from './permission-rules.ts';
import { matchesPattern } from './rule-pattern.ts';

type Rule = Pick<PermissionRule, 'id' | 'tool' | 'pattern' | 'effect' | 'note' | 'userId'>;

/** Whether a rule covers a call: its tool (or `*`) and every entry of its pattern. */
export function ruleCovers(rule: Rule, tool: string, args: unknown): boolean {
  return (rule.tool === '*' || rule.tool === tool) && matchesPattern(rule.pattern, args);
}

/**
 * The rule of this effect that covers the call, if any: the most specific (a named tool before
 * `*`, then the longest pattern), so that the reason a person reads names the rule they meant.
 */
export function coveringRule<R extends Rule>(
  rules: readonly R[],
  effect: RuleEffect,
  tool: string,
  args: unknown,
): R | undefined {
  const covering = rules.filter((r) => r.effect === effect && ruleCovers(r, tool, args));
  const specificity = (r: Rule) => (r.tool === '*' ? 0 : 1000) + Object.keys(r.pattern).length;
  return covering.sort((a, b) => specificity(b) - specificity(a))[0];
}

/** How a reason names a rule: whose, what it covers, and its note. */
export function describeRule(rule: Rule): string {
  const whose = rule.userId === null ? "the organization's rule" : 'your rule';
  const tool = rule.tool === '*' ? 'every tool' : rule.tool;
  const where = Object.entries(rule.pattern).map(([path, glob]) => `${path} matches ${JSON.stringify(glob)}`);
  const covers = where.length > 0 ? `${tool} where ${where.join(' and ')}` : `every call of ${tool}`;
  return `${whose} to ${rule.effect} ${covers}${rule.note ? ` (${rule.note})` : ''}`;
}
