import { invalidInput } from '../errors.ts';
import { isProviderName, PROVIDER_NAMES, type ProviderName, providerOfBareName } from './model-catalog.ts';

export interface ModelRef {
  provider: ProviderName;
  /** The provider's own model name, e.g. "gpt-4.1-mini" or "qwen3:8b". */
  model: string;
  /** Canonical `provider:model`. */
  id: string;
}

const MAX_MODEL_ID = 200;

/**
 * Reads `provider:model` (`ollama:qwen3:8b` keeps the colon of the tag), LiteLLM's
 * `provider/model`, or a DocRouter bare name whose provider its prefix tells
 * (`gpt-4o-mini`, `claude-sonnet-4-5`, `gemini-2.5-flash`).
 */
export function parseModelId(input: string): ModelRef {
  const text = input.trim();
  if (text.length === 0 || text.length > MAX_MODEL_ID) {
    throw invalidInput(`A model id must have 1 to ${MAX_MODEL_ID} characters, e.g. openai:gpt-4.1-mini.`);
  }
  for (const separator of [':', '/']) {
    const at = text.indexOf(separator);
    const prefix = text.slice(0, at);
    if (at > 0 && isProviderName(prefix) && at < text.length - 1) return ref(prefix, text.slice(at + 1));
  }
  const provider = providerOfBareName(text);
  if (provider) return ref(provider, text);
  throw invalidInput(
    `Cannot tell which provider serves "${text.slice(0, 60)}". Write it as provider:model, with provider one of ${PROVIDER_NAMES.join(', ')} (e.g. ollama:${text.slice(0, 30)}).`,
  );
}

const ref = (provider: ProviderName, model: string): ModelRef => ({ provider, model, id: `${provider}:${model}` });
