import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, ModelRegistry, SecretBox } from '@docagent/core';
import type { Config } from './config.ts';

/**
 * The secret that seals organizations' provider keys: DOCAGENT_SECRET, or on the embedded
 * database a random one kept next to it in DATA_DIR (one process owns that folder). Servers on
 * PostgreSQL must share one secret, so there it has to be configured; without it only
 * environment keys work.
 */
function serverSecret(database: Database, config: Config): string | undefined {
  if (config.llm.secret) return config.llm.secret;
  if (database.kind !== 'pglite') return undefined;
  // An in-memory database forgets its keys anyway.
  if (database.dataDir === undefined) return randomBytes(32).toString('base64url');
  const file = join(database.dataDir, 'secret.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
}

/**
 * The AI SDK's warnings about a call (a tool schema feature a provider ignores, a setting it does
 * not take) come back the same at every call; the default prints each one to stderr every time,
 * which cost an agent step more CPU than its own database work. Each is printed once a process.
 */
function warnOnceEach(): void {
  const printed = new Set<string>();
  globalThis.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) => {
    for (const warning of warnings) {
      const text = `AI SDK Warning (${provider ?? 'unknown provider'} / ${model ?? 'unknown model'}): ${JSON.stringify(warning)}`;
      if (printed.has(text)) continue;
      printed.add(text);
      process.emitWarning(text);
    }
  };
}

export function createModelRegistry(database: Database, config: Config): ModelRegistry {
  warnOnceEach();
  const secret = serverSecret(database, config);
  return new ModelRegistry(database.db, {
    env: config.llm.env,
    secretBox: secret ? new SecretBox(secret) : undefined,
    maxRetries: config.llm.maxRetries,
    timeoutMs: config.llm.timeoutMs,
  });
}
