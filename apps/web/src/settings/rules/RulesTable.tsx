import type { PermissionRule } from '../../api/permissionRules';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { formatDateTime } from '../../lib/format';

const COLUMNS = ['Effect', 'Tool', 'Arguments', 'Whose', 'Note'];

interface RulesTableProps {
  rules: PermissionRule[];
  /** Whether this person may change the organization's rules. */
  isAdmin: boolean;
  removing: string | null;
  onEdit: (rule: PermissionRule) => void;
  onRemove: (rule: PermissionRule) => void;
}

function EffectBadge({ rule }: { rule: PermissionRule }) {
  const allow = rule.effect === 'allow';
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${allow ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'}`}
    >
      {allow ? 'Allow' : 'Deny'}
    </span>
  );
}

/** The rules that decide the agent's calls, with what each covers. */
export function RulesTable({ rules, isAdmin, removing, onEdit, onRemove }: RulesTableProps) {
  return (
    <DataTable columns={COLUMNS}>
      {rules.length === 0 && (
        <tr>
          <td colSpan={COLUMNS.length + 1} className="px-4 py-6 text-center text-slate-500">
            No rules yet. Calls that change data ask for approval; “Always approve” on a call in the chat adds one.
          </td>
        </tr>
      )}
      {rules.map((rule) => {
        const entries = Object.entries(rule.pattern);
        const changeable = rule.scope === 'user' || isAdmin;
        return (
          <tr key={rule.rule_id} id={`rule-${rule.rule_id}`}>
            <td className="px-4 py-2">
              <EffectBadge rule={rule} />
              {rule.allows_everything && (
                <span className="ml-1 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900">
                  Allows everything
                </span>
              )}
            </td>
            <td className="px-4 py-2 font-mono text-xs">{rule.tool === '*' ? 'every tool' : rule.tool}</td>
            <td className="px-4 py-2 font-mono text-xs break-all">
              {entries.length === 0
                ? 'any'
                : entries.map(([path, glob]) => (
                    <div key={path}>
                      {path} = {glob}
                    </div>
                  ))}
            </td>
            <td className="px-4 py-2">{rule.scope === 'organization' ? 'Organization' : 'Mine'}</td>
            <td
              className="max-w-56 truncate px-4 py-2"
              title={`${rule.note}${rule.note ? '\n' : ''}Made ${formatDateTime(rule.created_at)}`}
            >
              {rule.note || '—'}
            </td>
            <td className="px-4 py-2 text-right whitespace-nowrap">
              {changeable && (
                <span className="inline-flex gap-2">
                  <Button variant="secondary" onClick={() => onEdit(rule)} aria-label={`Edit the rule on ${rule.tool}`}>
                    Edit
                  </Button>
                  <Button
                    variant="danger"
                    disabled={removing === rule.rule_id}
                    onClick={() => onRemove(rule)}
                    aria-label={`Remove the rule on ${rule.tool}`}
                  >
                    Remove
                  </Button>
                </span>
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
