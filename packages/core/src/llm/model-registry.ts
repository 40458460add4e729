import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createGroq } from '@ai-sdk/groq';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createXai } from '@ai-sdk/xai';
import type { LanguageModel } from 'ai';
import type { Db } from '../db/database.ts';
import { DomainError, invalidInput } from '../errors.ts';
import { getOrgLlmSettings, listOrgProviderRows, type OrgLlmSettings } from './llm-settings.ts';
import { catalogModels, DEFAULT_MODEL_PREFERENCE, PROVIDER_NAMES, PROVIDERS, type ProviderName } from './model-catalog.ts';
import { type ModelRef, parseModelId } from './model-ids.ts';
import { type SecretBox, tryOpen } from './secret-box.ts';

/** Provider keys, base URLs, `*_MODELS` lists and DOCAGENT_DEFAULT_MODEL, as the environment gives them. */
export type LlmEnv = Readonly<Record<string, string | undefined>>;

export interface LlmOptions {
  env: LlmEnv;
  /** Opens organizations' stored keys; without it only the environment's keys are used. */
  secretBox?: SecretBox;
  /** Retries of a failed provider call (429, 5xx, network), with exponential backoff. */
  maxRetries: number;
  /** Per provider call. */
  timeoutMs: number;
}

/** A provider this organization can use, with where its settings came from. */
export interface ConfiguredProvider {
  name: ProviderName;
  apiKey: string | undefined;
  apiKeyPreview: string | undefined;
  baseUrl: string | undefined;
  keySource: 'organization' | 'environment' | 'none';
  models: string[];
}

export interface ResolvedModel {
  ref: ModelRef;
  model: LanguageModel;
}

const splitList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The sentence every "nothing is configured" error ends with: where a person fixes it first, the
 * environment second (the README lists every provider's variables).
 */
export const CONFIGURE_PROVIDER_HINT =
  "An admin can add a provider's key in Settings → Models, or set one in the server's environment (e.g. OPENAI_API_KEY; the README lists them all) and restart it.";

const NO_MODEL_ENABLED = 'No model is enabled for this organization. An admin can enable one in Settings → Models.';
const NO_PROVIDER = `No LLM provider is configured. ${CONFIGURE_PROVIDER_HINT}`;

/** An organization's providers and model choices as they stand. */
export interface OrgModels {
  providers: ConfiguredProvider[];
  settings: OrgLlmSettings;
  /** Every model of the configured providers. */
  available: string[];
  enabled: string[];
  /** The models offered in the agent chat (all enabled ones unless the organization chose). */
  chat: string[];
  defaultModel: string | undefined;
}

/**
 * Which models an organization may use and the AI SDK model objects that reach them: the
 * server's environment, overridden per organization by stored keys, endpoints and choices.
 */
export class ModelRegistry {
  readonly db: Db;
  readonly options: LlmOptions;

  constructor(db: Db, options: LlmOptions) {
    this.db = db;
    this.options = options;
  }

  async providers(orgId: string): Promise<ConfiguredProvider[]> {
    const rows = new Map((await listOrgProviderRows(this.db, orgId)).map((r) => [r.provider, r]));
    const { env } = this.options;
    const configured: ConfiguredProvider[] = [];
    for (const name of PROVIDER_NAMES) {
      const info = PROVIDERS[name];
      const row = rows.get(name);
      // A key sealed under another server secret reads as absent rather than failing every call.
      const orgKey = row?.apiKeyEncrypted ? tryOpen(this.options.secretBox, row.apiKeyEncrypted) : undefined;
      const envKey = [info.apiKeyEnv, ...(info.apiKeyEnvAliases ?? [])]
        .map((v) => (v ? env[v]?.trim() : undefined))
        .find(Boolean);
      const apiKey = orgKey ?? envKey;
      const baseUrl = row?.baseUrl ?? (env[info.baseUrlEnv]?.trim() || undefined);
      const usable = info.local ? baseUrl !== undefined : apiKey !== undefined;
      if (!usable) continue;
      configured.push({
        name,
        apiKey,
        apiKeyPreview: orgKey ? (row?.apiKeyPreview ?? undefined) : undefined,
        baseUrl,
        keySource: orgKey ? 'organization' : envKey ? 'environment' : 'none',
        models: [
          ...new Set([
            ...catalogModels(name),
            ...[...splitList(info.modelsEnv && env[info.modelsEnv]), ...(row?.models ?? [])].map((m) => `${name}:${m}`),
          ]),
        ],
      });
    }
    return configured;
  }

  /** Everything the organization's model choices depend on, read once. */
  async snapshot(orgId: string): Promise<OrgModels> {
    const [providers, settings] = await Promise.all([this.providers(orgId), getOrgLlmSettings(this.db, orgId)]);
    const available = providers.flatMap((p) => p.models);
    const enabled = settings.enabledModels ? available.filter((id) => settings.enabledModels?.includes(id)) : available;
    const chosenForChat = settings.chatModels ? enabled.filter((id) => settings.chatModels?.includes(id)) : [];
    return {
      providers,
      settings,
      available,
      enabled,
      chat: chosenForChat.length > 0 ? chosenForChat : enabled,
      defaultModel: this.pickDefault(enabled, settings),
    };
  }

  /** The models an organization may use (`chatOnly`: the subset offered in the agent chat). */
  async models(orgId: string, options: { chatOnly?: boolean } = {}): Promise<string[]> {
    const snapshot = await this.snapshot(orgId);
    return options.chatOnly ? snapshot.chat : snapshot.enabled;
  }

  /** The models to offer a person, the default among them, and what to configure when there are none. */
  async offer(
    orgId: string,
    options: { chatOnly?: boolean } = {},
  ): Promise<{ models: string[]; defaultModel: string | undefined; configureHint: string | undefined }> {
    const snapshot = await this.snapshot(orgId);
    const models = options.chatOnly ? snapshot.chat : snapshot.enabled;
    const configureHint = snapshot.providers.length === 0 ? NO_PROVIDER : models.length === 0 ? NO_MODEL_ENABLED : undefined;
    return { models, defaultModel: snapshot.defaultModel, configureHint };
  }

  /** The organization's default model, if any provider is configured. */
  async defaultModel(orgId: string): Promise<string | undefined> {
    return (await this.snapshot(orgId)).defaultModel;
  }

  private pickDefault(enabled: string[], settings: OrgLlmSettings): string | undefined {
    const preferred = [settings.defaultModel, this.options.env.DOCAGENT_DEFAULT_MODEL, ...DEFAULT_MODEL_PREFERENCE]
      .filter((id): id is string => Boolean(id))
      .map((id) => parseModelId(id).id);
    return preferred.find((id) => enabled.includes(id)) ?? enabled[0];
  }

  /**
   * The model to call: the requested one (any accepted spelling) or the organization's default.
   * Fails with what to configure when no provider is set up, and with the enabled models when
   * the requested one is not among them.
   */
  async resolve(orgId: string, requested?: string | null): Promise<ResolvedModel> {
    return this.resolveIn(await this.snapshot(orgId), requested);
  }

  /** As resolve, from choices already read (a call that also needs the settings reads them once). */
  resolveIn(models: OrgModels, requested?: string | null): ResolvedModel {
    const { providers, settings, enabled, defaultModel } = models;
    if (providers.length === 0) throw new DomainError('unavailable', NO_PROVIDER);
    const id = requested ? parseModelId(requested).id : defaultModel;
    if (id === undefined) {
      throw invalidInput(NO_MODEL_ENABLED);
    }
    const ref = parseModelId(id);
    const provider = providers.find((p) => p.name === ref.provider);
    if (!provider) {
      const info = PROVIDERS[ref.provider];
      throw invalidInput(
        `Model ${ref.id} needs the ${info.label} provider, which is not configured: set ${info.apiKeyEnv ?? info.baseUrlEnv} on the server or add its key in Settings → Models. Enabled models: ${enabled.join(', ') || 'none'}.`,
      );
    }
    // Local endpoints serve whatever they have pulled, so any name is let through for them.
    if (!enabled.includes(ref.id) && !(PROVIDERS[ref.provider].local && !settings.enabledModels)) {
      throw invalidInput(`Model ${ref.id} is not enabled for this organization. Enabled models: ${enabled.join(', ')}.`);
    }
    return { ref, model: languageModel(provider, ref.model) };
  }
}

function languageModel(p: ConfiguredProvider, model: string): LanguageModel {
  const settings = { apiKey: p.apiKey, baseURL: p.baseUrl };
  switch (p.name) {
    case 'openai':
      return createOpenAI(settings)(model);
    case 'anthropic':
      return createAnthropic(settings)(model);
    case 'google':
      return createGoogleGenerativeAI(settings)(model);
    case 'groq':
      return createGroq(settings)(model);
    case 'xai':
      return createXai(settings)(model);
    case 'mistral':
      return createMistral(settings)(model);
    case 'ollama':
    case 'openai-compatible':
      return createOpenAICompatible({
        name: p.name,
        baseURL: p.baseUrl ?? '',
        apiKey: p.apiKey,
        includeUsage: true,
        supportsStructuredOutputs: true,
      })(model);
  }
}

/** The variables the model layer reads, taken from a process environment. */
export function llmEnvOf(env: Readonly<Record<string, string | undefined>>): LlmEnv {
  const names = new Set(['DOCAGENT_DEFAULT_MODEL']);
  for (const info of Object.values(PROVIDERS)) {
    for (const name of [info.apiKeyEnv, ...(info.apiKeyEnvAliases ?? []), info.baseUrlEnv, info.modelsEnv]) {
      if (name) names.add(name);
    }
  }
  return Object.freeze(Object.fromEntries([...names].filter((n) => env[n] !== undefined).map((n) => [n, env[n]])));
}
