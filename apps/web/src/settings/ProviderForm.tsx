import { type FormEvent, useState } from 'react';
import { type LlmProvider, type ProviderChange, useUpdateProviderMutation } from '../api/llmSettings';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextAreaField } from '../components/TextAreaField';
import { TextField } from '../components/TextField';

/** Providers that serve whatever models they host, so that their model names are configured. */
const NAMED_MODEL_PROVIDERS = new Set(['ollama', 'openai-compatible']);

interface ProviderFormProps {
  orgId: string;
  provider: LlmProvider;
  /** The provider's models now available, as "provider:model" ids. */
  models: string[];
  canStoreKeys: boolean;
}

const modelNamesOf = (provider: string, models: string[]) =>
  models.filter((model) => model.startsWith(`${provider}:`)).map((model) => model.slice(provider.length + 1));

/** An admin's form to set or remove the organization's key, endpoint and model names for one provider. */
export function ProviderForm({ orgId, provider, models, canStoreKeys }: ProviderFormProps) {
  const initialModels = modelNamesOf(provider.name, models).join('\n');
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(provider.base_url ?? '');
  const [modelNames, setModelNames] = useState(initialModels);
  const update = useUpdateProviderMutation(orgId, provider.name);
  const namesModels = NAMED_MODEL_PROVIDERS.has(provider.name);
  const needsKey = provider.api_key_env !== null;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const change: ProviderChange = {};
    if (apiKey.trim() !== '') change.api_key = apiKey.trim();
    if (baseUrl.trim() !== (provider.base_url ?? '')) change.base_url = baseUrl.trim() === '' ? null : baseUrl.trim();
    if (namesModels && modelNames !== initialModels) {
      change.models = modelNames
        .split('\n')
        .map((name) => name.trim())
        .filter(Boolean);
    }
    // The key is never shown back: clear it whether or not it was saved with the rest.
    update.mutate(change, { onSuccess: () => setApiKey('') });
  }

  return (
    // An open form takes the whole row of the grid it sits in, so that its fields keep their width.
    <details
      className="min-w-0 rounded-md border border-slate-200 open:col-span-full"
      open={provider.key_source === 'organization'}
    >
      <summary
        className="cursor-pointer truncate px-4 py-2 text-sm font-medium text-slate-900"
        title={`${provider.label}: key and endpoint`}
      >
        {provider.label}: key and endpoint
      </summary>
      <form aria-label={`${provider.label} provider`} onSubmit={handleSubmit} noValidate className="space-y-3 px-4 pt-1 pb-3">
        <div className="grid gap-3 sm:grid-cols-2">
          {needsKey && (
            <TextField
              label="API key"
              type="password"
              autoComplete="new-password"
              value={apiKey}
              disabled={!canStoreKeys || update.isPending}
              hint={
                provider.key_source === 'organization'
                  ? `The organization's key (${provider.api_key_preview ?? 'set'}) is kept unless you enter a new one.`
                  : `Empty: use ${provider.api_key_env} from the server's environment.`
              }
              onChange={(event) => setApiKey(event.target.value)}
            />
          )}
          <TextField
            label="Base URL"
            type="url"
            value={baseUrl}
            placeholder={`Empty: ${provider.base_url_env} or the provider's own`}
            disabled={update.isPending}
            onChange={(event) => setBaseUrl(event.target.value)}
          />
        </div>
        {namesModels && (
          <TextAreaField
            label="Model names"
            hint="One per line, as the server names them, e.g. llama3.1:8b."
            rows={3}
            value={modelNames}
            disabled={update.isPending}
            onChange={(event) => setModelNames(event.target.value)}
          />
        )}
        {update.isError && <ErrorAlert title={`Could not save ${provider.label}`} error={update.error} />}
        {update.isSuccess && <p className="text-sm text-emerald-700">Saved.</p>}
        <div className="flex gap-2">
          <Button type="submit" disabled={update.isPending}>
            Save {provider.label}
          </Button>
          {provider.key_source === 'organization' && (
            <Button variant="danger" disabled={update.isPending} onClick={() => update.mutate({ api_key: null })}>
              Remove key
            </Button>
          )}
        </div>
      </form>
    </details>
  );
}
