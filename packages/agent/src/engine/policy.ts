import type { ToolDefinition } from '../tools/tool.ts';

/** What the person allowed for this turn. */
export interface ApprovalPolicy {
  autoApprove: boolean;
  autoApprovedTools: string[];
}

/** Read-only tools run now; a read-write tool runs now only when the person allowed it ahead. */
export function runsWithoutApproval(tool: ToolDefinition, policy: ApprovalPolicy): boolean {
  return tool.access === 'read_only' || policy.autoApprove || policy.autoApprovedTools.includes(tool.name);
}
