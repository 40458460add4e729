import { type FormEvent, useState } from 'react';
import type { PermissionRule, RuleEffect, RuleInput, RuleScope } from '../../api/permissionRules';
import { Button } from '../../components/Button';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SelectField } from '../../components/SelectField';
import { TextField } from '../../components/TextField';
import { PatternRows, patternOf, rowsOf } from './PatternRows';

interface RuleFormProps {
  tools: string[];
  isAdmin: boolean;
  /** The rule being changed; absent for a new one. */
  editing?: PermissionRule;
  pending: boolean;
  error: unknown;
  onSubmit: (input: RuleInput & { scope: RuleScope }) => void;
  onCancel?: () => void;
}

/** A new rule, or the changes to one: the tool, its arguments, allow or deny, and for admins whose it is. */
export function RuleForm({ tools, isAdmin, editing, pending, error, onSubmit, onCancel }: RuleFormProps) {
  const [tool, setTool] = useState(editing?.tool ?? tools[0] ?? '*');
  const [effect, setEffect] = useState<RuleEffect>(editing?.effect ?? 'allow');
  const [scope, setScope] = useState<RuleScope>(editing?.scope ?? 'user');
  const [rows, setRows] = useState(rowsOf(editing?.pattern ?? {}));
  const [note, setNote] = useState(editing?.note ?? '');
  const everything = effect === 'allow' && tool === '*' && Object.keys(patternOf(rows)).length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit({ tool, effect, scope, pattern: patternOf(rows), note: note.trim() });
  }

  return (
    <form
      onSubmit={submit}
      aria-label={editing ? 'Change the rule' : 'New rule'}
      className="space-y-3 rounded-md border border-slate-200 p-4"
    >
      <h3 className="text-sm font-semibold text-slate-900">{editing ? 'Change the rule' : 'Add a rule'}</h3>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField label="Tool" value={tool} onChange={(event) => setTool(event.target.value)}>
          <option value="*">Every tool (*)</option>
          {tools.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Effect" value={effect} onChange={(event) => setEffect(event.target.value as RuleEffect)}>
          <option value="allow">Allow without asking</option>
          <option value="deny">Deny</option>
        </SelectField>
        <SelectField
          label="Whose"
          value={scope}
          disabled={editing !== undefined || !isAdmin}
          hint={isAdmin ? undefined : "Only admins make the organization's rules."}
          onChange={(event) => setScope(event.target.value as RuleScope)}
        >
          <option value="user">Mine</option>
          <option value="organization">The whole organization</option>
        </SelectField>
        <TextField
          label="Note"
          placeholder="Why the rule exists"
          value={note}
          maxLength={500}
          onChange={(e) => setNote(e.target.value)}
        />
      </div>
      <PatternRows rows={rows} onChange={setRows} />
      {everything && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900 ring-1 ring-amber-200 ring-inset">
          This rule allows every call of every tool without asking anyone{isAdmin ? '.' : ': only admins may make it.'}
        </p>
      )}
      {error !== null && error !== undefined && <ErrorAlert title="The rule was not saved" error={error} />}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {editing ? 'Save the rule' : 'Add the rule'}
        </Button>
        {onCancel && (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
