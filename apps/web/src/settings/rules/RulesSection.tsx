import { useState } from 'react';
import {
  type PermissionRule,
  useCreateRuleMutation,
  useDeleteRuleMutation,
  useRulesQuery,
  useUpdateRuleMutation,
} from '../../api/permissionRules';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LoadingState } from '../../components/LoadingState';
import { useCurrentOrg } from '../../layout/OrgRoute';
import { SettingsSection } from '../SettingsSection';
import { RuleForm } from './RuleForm';
import { RulesTable } from './RulesTable';

/** Settings → Rules: standing allow and deny decisions on the agent's tool calls. */
export function RulesSection() {
  const org = useCurrentOrg();
  const isAdmin = org.role === 'admin';
  const rules = useRulesQuery(org.id);
  const create = useCreateRuleMutation(org.id);
  const update = useUpdateRuleMutation(org.id);
  const remove = useDeleteRuleMutation(org.id);
  const [editing, setEditing] = useState<PermissionRule | null>(null);
  // A new form after each rule added: its fields start empty again.
  const [formKey, setFormKey] = useState(0);

  function confirmRemove(rule: PermissionRule) {
    if (
      window.confirm(`Remove the rule on ${rule.tool === '*' ? 'every tool' : rule.tool}? Its calls will be decided without it.`)
    ) {
      remove.mutate(rule.rule_id);
    }
  }

  return (
    <SettingsSection
      title="Rules"
      description="Standing decisions on the agent's tool calls, in the chat, auto-create and MCP alike: a deny rule refuses a call, whatever else would allow it; an allow rule runs it without asking. The organization's rules apply to everyone; yours to you."
    >
      {rules.isPending && <LoadingState label="Loading rules…" />}
      {rules.isError && <ErrorAlert title="Could not load the rules" error={rules.error} onRetry={() => void rules.refetch()} />}
      {rules.data && (
        <>
          {remove.isError && <ErrorAlert title="Could not remove the rule" error={remove.error} />}
          <RulesTable
            rules={rules.data.rules}
            isAdmin={isAdmin}
            removing={remove.isPending ? (remove.variables ?? null) : null}
            onEdit={setEditing}
            onRemove={confirmRemove}
          />
          {editing ? (
            <RuleForm
              key={editing.rule_id}
              tools={rules.data.tools}
              isAdmin={isAdmin}
              editing={editing}
              pending={update.isPending}
              error={update.error}
              onSubmit={({ scope: _, ...input }) =>
                update.mutate({ ruleId: editing.rule_id, ...input }, { onSuccess: () => setEditing(null) })
              }
              onCancel={() => {
                update.reset();
                setEditing(null);
              }}
            />
          ) : (
            <RuleForm
              key={formKey}
              tools={rules.data.tools}
              isAdmin={isAdmin}
              pending={create.isPending}
              error={create.error}
              onSubmit={(input) => create.mutate(input, { onSuccess: () => setFormKey((k) => k + 1) })}
            />
          )}
        </>
      )}
    </SettingsSection>
  );
}
