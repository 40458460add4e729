import { type FormEvent, useState } from 'react';
import { type LlmSettings, useUpdateLlmSettingsMutation } from '../api/llmSettings';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { SelectField } from '../components/SelectField';
import { TextField } from '../components/TextField';
import { usd } from './LlmSettingsGate';
import { ModelChecklist } from './ModelChecklist';

interface ModelChoicesFormProps {
  orgId: string;
  settings: LlmSettings;
  /** Non-admins see the choices but cannot change them. */
  readOnly: boolean;
}

/** Null (every one) when all are checked, so that models added later are included too. */
function listOrAll(checked: Set<string>, all: string[]): string[] | null {
  return all.every((model) => checked.has(model)) ? null : all.filter((model) => checked.has(model));
}

/** The organization's default model, which models it may use and offer in chat, and its monthly limit. */
export function ModelChoicesForm({ orgId, settings, readOnly }: ModelChoicesFormProps) {
  const available = settings.available_models;
  const [defaultModel, setDefaultModel] = useState(settings.default_model ?? '');
  const [enabled, setEnabled] = useState(() => new Set(settings.enabled_models ?? available));
  const [chat, setChat] = useState(() => new Set(settings.chat_models ?? settings.enabled_models ?? available));
  const [limit, setLimit] = useState(settings.monthly_limit_usd === null ? '' : String(settings.monthly_limit_usd));
  const [limitError, setLimitError] = useState<string | undefined>();
  const update = useUpdateLlmSettingsMutation(orgId);
  const enabledList = available.filter((model) => enabled.has(model));
  const disabled = readOnly || update.isPending;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const limitText = limit.trim();
    const limitUsd = limitText === '' ? null : Number(limitText);
    if (limitUsd !== null && (!Number.isFinite(limitUsd) || limitUsd < 0)) {
      setLimitError('Enter an amount in US dollars, such as 50, or leave it empty for no limit.');
      return;
    }
    setLimitError(undefined);
    update.mutate({
      default_model: defaultModel === '' ? null : defaultModel,
      enabled_models: listOrAll(enabled, available),
      chat_models: listOrAll(chat, enabledList),
      monthly_limit_usd: limitUsd,
    });
  }

  return (
    <form aria-label="Model choices" onSubmit={handleSubmit} noValidate className="space-y-4">
      {/* Side by side: both are one value, and the page then fits the window. */}
      <div className="grid gap-4 md:grid-cols-2">
        <SelectField
          label="Default model"
          value={defaultModel}
          disabled={disabled}
          hint="Prompts set to the organization default run with it."
          onChange={(event) => setDefaultModel(event.target.value)}
        >
          <option value="">
            Server default{settings.effective_default_model ? ` (${settings.effective_default_model})` : ''}
          </option>
          {enabledList.map((model) => (
            <option key={model} value={model}>
              {model}
            </option>
          ))}
          {defaultModel !== '' && !enabledList.includes(defaultModel) && (
            <option value={defaultModel}>{defaultModel} (not available)</option>
          )}
        </SelectField>
        <TextField
          label="Monthly limit (USD)"
          inputMode="decimal"
          value={limit}
          disabled={disabled}
          error={limitError}
          hint={`Empty: no limit. Runs are refused once the month's spend reaches it; spent this month: ${usd.format(settings.spent_this_month_usd)}.`}
          onChange={(event) => setLimit(event.target.value)}
        />
      </div>
      <ModelChecklist
        legend="Enabled models"
        hint="The models prompts may use. All checked: every available model, including ones added later."
        models={available}
        checked={enabled}
        disabled={disabled}
        onChange={setEnabled}
      />
      <ModelChecklist
        legend="Chat models"
        hint="The enabled models offered in the agent chat."
        models={enabledList}
        checked={chat}
        disabled={disabled}
        onChange={setChat}
      />
      {update.isError && <ErrorAlert title="Could not save the model settings" error={update.error} />}
      {update.isSuccess && <p className="text-sm text-emerald-700">Saved.</p>}
      {!readOnly && (
        <Button type="submit" disabled={update.isPending}>
          Save model settings
        </Button>
      )}
    </form>
  );
}
