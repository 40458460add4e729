import { type FormEvent, useId, useState } from 'react';
import { type LlmSettings, useUpdateLlmSettingsMutation } from '../api/llmSettings';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { SelectField } from '../components/SelectField';

interface AutoCreateSettingsFormProps {
  orgId: string;
  settings: LlmSettings;
  /** Non-admins see the choices but cannot change them. */
  readOnly: boolean;
}

/** Whether uploads ask the agent for a schema and a prompt by default, and which model that agent uses. */
export function AutoCreateSettingsForm({ orgId, settings, readOnly }: AutoCreateSettingsFormProps) {
  const [byDefault, setByDefault] = useState(settings.auto_create_default);
  const [model, setModel] = useState(settings.auto_create_model ?? '');
  const update = useUpdateLlmSettingsMutation(orgId);
  const disabled = readOnly || update.isPending;
  const checkboxId = useId();
  const enabled = settings.effective_enabled_models;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    update.mutate({ auto_create_default: byDefault, auto_create_model: model === '' ? null : model });
  }

  return (
    <form aria-label="Auto-create" onSubmit={handleSubmit} className="space-y-4">
      <div className="flex items-start gap-2 text-sm">
        <input
          id={checkboxId}
          type="checkbox"
          className="mt-0.5 size-4 rounded border-slate-300"
          checked={byDefault}
          disabled={disabled}
          onChange={(event) => setByDefault(event.target.checked)}
        />
        <label htmlFor={checkboxId} className="text-slate-800">
          Auto-create schema &amp; prompt by default on upload
        </label>
      </div>
      <SelectField
        label="Auto-create model"
        className="max-w-sm"
        value={model}
        disabled={disabled}
        hint="The model the auto-create agent works with."
        onChange={(event) => setModel(event.target.value)}
      >
        <option value="">Default model{settings.effective_default_model ? ` (${settings.effective_default_model})` : ''}</option>
        {enabled.map((candidate) => (
          <option key={candidate} value={candidate}>
            {candidate}
          </option>
        ))}
        {model !== '' && !enabled.includes(model) && <option value={model}>{model} (not available)</option>}
      </SelectField>
      {update.isError && <ErrorAlert title="Could not save the auto-create settings" error={update.error} />}
      {update.isSuccess && <p className="text-sm text-emerald-700">Saved.</p>}
      {!readOnly && (
        <Button type="submit" disabled={update.isPending}>
          Save auto-create settings
        </Button>
      )}
    </form>
  );
}
