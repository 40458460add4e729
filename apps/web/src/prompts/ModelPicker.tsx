import { useModelsQuery } from '../api/models';
import { ErrorAlert } from '../components/ErrorAlert';
import { SelectField } from '../components/SelectField';

interface ModelPickerProps {
  orgId: string;
  /** Null: the organization's default model. */
  value: string | null;
  onChange: (model: string | null) => void;
}

export const NO_MODEL_MESSAGE =
  'No model is configured: set OPENAI_API_KEY (or another provider key) on the server, or configure a provider in Settings.';

/** The model that runs the prompt, from those the server's providers offer, or the organization's default. */
export function ModelPicker({ orgId, value, onChange }: ModelPickerProps) {
  const modelsQuery = useModelsQuery(orgId);
  const models = modelsQuery.data ?? [];
  // A model saved earlier stays choosable even if its provider is no longer configured.
  const isUnlisted = value !== null && !models.includes(value);

  return (
    <div className="space-y-2">
      <SelectField
        label="Model"
        className="w-full max-w-xs"
        disabled={modelsQuery.isPending}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
      >
        <option value="">Organization default</option>
        {models.map((model) => (
          <option key={model} value={model}>
            {model}
          </option>
        ))}
        {isUnlisted && <option value={value}>{value} (not available)</option>}
      </SelectField>
      {modelsQuery.isSuccess && models.length === 0 && <p className="text-sm text-amber-800">{NO_MODEL_MESSAGE}</p>}
      {modelsQuery.isError && (
        <ErrorAlert title="Could not load the models" error={modelsQuery.error} onRetry={() => void modelsQuery.refetch()} />
      )}
    </div>
  );
}
