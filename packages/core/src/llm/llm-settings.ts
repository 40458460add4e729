import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { orgLlmProviders, orgLlmSettings } from '../db/schema.ts';
import { invalidInput } from '../errors.ts';
import { type OrgAccess, requireAdmin } from '../identity/access.ts';
import { isProviderName, PROVIDER_NAMES, type ProviderName } from './model-catalog.ts';
import { parseModelId } from './model-ids.ts';
import { previewSecret, requireBox, type SecretBox } from './secret-box.ts';

/** An organization's model choices; null fields fall back to the server's defaults. */
export interface OrgLlmSettings {
  defaultModel: string | null;
  enabledModels: string[] | null;
  chatModels: string[] | null;
  monthlyLimitUsd: number | null;
  /** Whether uploads ask for auto-create when they do not say. */
  autoCreateDefault: boolean;
  /** The model of the headless auto-create agent; null: the default model. */
  autoCreateModel: string | null;
}

export interface OrgProviderRow {
  provider: ProviderName;
  apiKeyEncrypted: string | null;
  apiKeyPreview: string | null;
  baseUrl: string | null;
  models: string[];
}

const NO_SETTINGS: OrgLlmSettings = {
  defaultModel: null,
  enabledModels: null,
  chatModels: null,
  monthlyLimitUsd: null,
  autoCreateDefault: false,
  autoCreateModel: null,
};
const MAX_MODELS = 200;

export async function getOrgLlmSettings(db: Db, orgId: string): Promise<OrgLlmSettings> {
  const [row] = await db.select().from(orgLlmSettings).where(eq(orgLlmSettings.orgId, orgId));
  if (!row) return NO_SETTINGS;
  return {
    defaultModel: row.defaultModel,
    enabledModels: row.enabledModels,
    chatModels: row.chatModels,
    monthlyLimitUsd: row.monthlyLimitUsd,
    autoCreateDefault: row.autoCreateDefault,
    autoCreateModel: row.autoCreateModel,
  };
}

const canonicalIds = (ids: string[] | null | undefined, field: string): string[] | null | undefined => {
  if (ids == null) return ids;
  if (ids.length > MAX_MODELS) throw invalidInput(`${field} lists ${ids.length} models; at most ${MAX_MODELS} are allowed.`);
  return [...new Set(ids.map((id) => parseModelId(id).id))];
};

const ADMINS_ONLY = "Only an organization's admins can change its model settings.";

/** Changes the given fields (undefined: unchanged, null: back to the server default). Admins only. */
export async function updateOrgLlmSettings(db: Db, access: OrgAccess, change: Partial<OrgLlmSettings>): Promise<OrgLlmSettings> {
  requireAdmin(access, ADMINS_ONLY);
  const { orgId } = access;
  if (change.monthlyLimitUsd != null && !(change.monthlyLimitUsd >= 0)) {
    throw invalidInput('monthly_limit_usd must be 0 or more (null: no limit).');
  }
  const values = {
    defaultModel: change.defaultModel === undefined ? undefined : change.defaultModel && parseModelId(change.defaultModel).id,
    enabledModels: canonicalIds(change.enabledModels, 'enabled_models'),
    chatModels: canonicalIds(change.chatModels, 'chat_models'),
    monthlyLimitUsd: change.monthlyLimitUsd,
    autoCreateDefault: change.autoCreateDefault,
    autoCreateModel:
      change.autoCreateModel === undefined ? undefined : change.autoCreateModel && parseModelId(change.autoCreateModel).id,
    updatedAt: new Date(),
  };
  await db
    .insert(orgLlmSettings)
    .values({ orgId, ...values })
    .onConflictDoUpdate({ target: orgLlmSettings.orgId, set: values });
  return getOrgLlmSettings(db, orgId);
}

export async function listOrgProviderRows(db: Db, orgId: string): Promise<OrgProviderRow[]> {
  const rows = await db.select().from(orgLlmProviders).where(eq(orgLlmProviders.orgId, orgId));
  return rows.flatMap((r) =>
    isProviderName(r.provider)
      ? [
          {
            provider: r.provider,
            apiKeyEncrypted: r.apiKeyEncrypted,
            apiKeyPreview: r.apiKeyPreview,
            baseUrl: r.baseUrl,
            models: r.models,
          },
        ]
      : [],
  );
}

export interface ProviderChange {
  /** A new key; null removes the organization's key (the server's applies again). */
  apiKey?: string | null;
  baseUrl?: string | null;
  models?: string[];
}

function checkBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidInput(`base_url "${url.slice(0, 100)}" is not a URL; write e.g. http://localhost:11434/v1.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidInput('base_url must be an http or https URL.');
  return url.replace(/\/+$/, '');
}

/** Stores an organization's credentials for a provider; keys are sealed with the server secret. Admins only. */
export async function setOrgProvider(
  db: Db,
  box: SecretBox | undefined,
  access: OrgAccess,
  providerName: string,
  change: ProviderChange,
): Promise<void> {
  requireAdmin(access, ADMINS_ONLY);
  const { orgId } = access;
  if (!isProviderName(providerName)) {
    throw invalidInput(`Unknown provider "${providerName.slice(0, 40)}"; use one of ${PROVIDER_NAMES.join(', ')}.`);
  }
  const sealer = change.apiKey ? requireBox(box, 'Provider keys', 'set the key as an environment variable instead') : undefined;
  if (change.apiKey != null && (change.apiKey.length < 8 || change.apiKey.length > 500)) {
    throw invalidInput('api_key must have 8 to 500 characters.');
  }
  const models = change.models?.map((m) => m.trim()).filter(Boolean);
  if (models && models.length > MAX_MODELS) throw invalidInput(`models lists more than ${MAX_MODELS} names.`);
  const values = {
    ...(change.apiKey === undefined
      ? {}
      : change.apiKey === null
        ? { apiKeyEncrypted: null, apiKeyPreview: null }
        : { apiKeyEncrypted: sealer?.seal(change.apiKey), apiKeyPreview: previewSecret(change.apiKey) }),
    ...(change.baseUrl === undefined ? {} : { baseUrl: change.baseUrl === null ? null : checkBaseUrl(change.baseUrl) }),
    ...(models === undefined ? {} : { models }),
    updatedAt: new Date(),
  };
  await db
    .insert(orgLlmProviders)
    .values({ orgId, provider: providerName, ...values })
    .onConflictDoUpdate({ target: [orgLlmProviders.orgId, orgLlmProviders.provider], set: values });
}
