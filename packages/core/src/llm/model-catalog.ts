/**
 * The providers docagent talks to and the models it knows prices for. Prices are US dollars per
 * million tokens as the providers listed them (2025-2026); they make cost estimates, not bills.
 * A model missing here can still be used when its provider is configured: its cost is recorded
 * as unknown.
 */

export const PROVIDER_NAMES = ['openai', 'anthropic', 'google', 'groq', 'xai', 'mistral', 'ollama', 'openai-compatible'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const isProviderName = (name: string): name is ProviderName => (PROVIDER_NAMES as readonly string[]).includes(name);

export interface ProviderInfo {
  label: string;
  /** Environment variable holding the server-wide key; undefined for keyless local endpoints. */
  apiKeyEnv?: string;
  /** Also accepted for the key, e.g. GEMINI_API_KEY. */
  apiKeyEnvAliases?: string[];
  baseUrlEnv: string;
  /** Comma-separated model names served by the endpoint (for providers without a catalogue). */
  modelsEnv?: string;
  /** Local endpoints are configured by a base URL alone and cost nothing per token. */
  local?: boolean;
}

export const PROVIDERS: Record<ProviderName, ProviderInfo> = {
  openai: { label: 'OpenAI', apiKeyEnv: 'OPENAI_API_KEY', baseUrlEnv: 'OPENAI_BASE_URL', modelsEnv: 'OPENAI_MODELS' },
  anthropic: {
    label: 'Anthropic',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    modelsEnv: 'ANTHROPIC_MODELS',
  },
  google: {
    label: 'Google Gemini',
    apiKeyEnv: 'GOOGLE_GENERATIVE_AI_API_KEY',
    apiKeyEnvAliases: ['GEMINI_API_KEY'],
    baseUrlEnv: 'GOOGLE_BASE_URL',
    modelsEnv: 'GOOGLE_MODELS',
  },
  groq: { label: 'Groq', apiKeyEnv: 'GROQ_API_KEY', baseUrlEnv: 'GROQ_BASE_URL', modelsEnv: 'GROQ_MODELS' },
  xai: { label: 'xAI', apiKeyEnv: 'XAI_API_KEY', baseUrlEnv: 'XAI_BASE_URL', modelsEnv: 'XAI_MODELS' },
  mistral: { label: 'Mistral', apiKeyEnv: 'MISTRAL_API_KEY', baseUrlEnv: 'MISTRAL_BASE_URL', modelsEnv: 'MISTRAL_MODELS' },
  ollama: { label: 'Ollama', baseUrlEnv: 'OLLAMA_BASE_URL', modelsEnv: 'OLLAMA_MODELS', local: true },
  'openai-compatible': {
    label: 'OpenAI-compatible endpoint (vLLM, LM Studio, LiteLLM)',
    apiKeyEnv: 'OPENAI_COMPATIBLE_API_KEY',
    baseUrlEnv: 'OPENAI_COMPATIBLE_BASE_URL',
    modelsEnv: 'OPENAI_COMPATIBLE_MODELS',
    local: true,
  },
};

export interface ModelPrice {
  /** USD per million input tokens that were not read from a cache. */
  input: number;
  output: number;
  /** USD per million input tokens read from the provider's prompt cache. */
  cachedInput?: number;
}

/** Known models, `provider:model` → price. Order within a provider is the order offered first. */
export const MODEL_PRICES: Record<string, ModelPrice> = {
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'openai:gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'openai:gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  'openai:gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'openai:gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'openai:gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'openai:gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  'openai:o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'anthropic:claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3 },
  'anthropic:claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
  'anthropic:claude-opus-4-1': { input: 15, output: 75, cachedInput: 1.5 },
  'google:gemini-2.5-flash': { input: 0.3, output: 2.5, cachedInput: 0.075 },
  'google:gemini-2.5-pro': { input: 1.25, output: 10, cachedInput: 0.31 },
  'google:gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'groq:llama-3.3-70b-versatile': { input: 0.59, output: 0.79 },
  'groq:llama-3.1-8b-instant': { input: 0.05, output: 0.08 },
  'groq:openai/gpt-oss-120b': { input: 0.15, output: 0.75 },
  'xai:grok-4': { input: 3, output: 15, cachedInput: 0.75 },
  'xai:grok-3-mini': { input: 0.3, output: 0.5, cachedInput: 0.075 },
  'mistral:mistral-large-latest': { input: 2, output: 6 },
  'mistral:mistral-medium-latest': { input: 0.4, output: 2 },
  'mistral:mistral-small-latest': { input: 0.1, output: 0.3 },
};

/** Which default to pick when an organization and the server name none: the first enabled. */
export const DEFAULT_MODEL_PREFERENCE = [
  'openai:gpt-4.1-mini',
  'anthropic:claude-sonnet-4-5',
  'google:gemini-2.5-flash',
  'mistral:mistral-medium-latest',
  'xai:grok-3-mini',
  'groq:llama-3.3-70b-versatile',
];

export function catalogModels(provider: ProviderName): string[] {
  const prefix = `${provider}:`;
  return Object.keys(MODEL_PRICES).filter((id) => id.startsWith(prefix));
}

/** DocRouter-style bare names (and LiteLLM's `provider/model`) → our provider. */
const BARE_NAME_PROVIDERS: Array<[RegExp, ProviderName]> = [
  [/^(gpt-|o\d|chatgpt-|text-embedding-)/, 'openai'],
  [/^claude-/, 'anthropic'],
  [/^gemini-/, 'google'],
  [/^grok-/, 'xai'],
  [/^(mistral-|magistral-|codestral-|ministral-|pixtral-|open-mistral)/, 'mistral'],
];

export function providerOfBareName(name: string): ProviderName | undefined {
  return BARE_NAME_PROVIDERS.find(([pattern]) => pattern.test(name))?.[1];
}
