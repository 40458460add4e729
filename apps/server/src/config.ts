import { resolve } from 'node:path';
import { type DatabaseTarget, databaseTargetFromEnv } from '@docagent/core';
import { z } from 'zod';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8700),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAX_BODY_MB: z.coerce.number().positive().max(1024).default(1),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: z.stringbool().default(false),
});

export interface Config {
  port: number;
  host: string;
  database: DatabaseTarget;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  maxBodyBytes: number;
  /** Where people reach the web app (PUBLIC_URL); printed links fall back to localhost and the real port. */
  publicUrl: string | undefined;
  trustProxy: boolean;
}

/** Reads the configuration from environment variables; a bad value names the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}. Fix these environment variables and start again.`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    database: databaseTargetFromEnv({ DATABASE_URL: e.DATABASE_URL, DATA_DIR: resolve(e.DATA_DIR) }),
    logLevel: e.LOG_LEVEL,
    maxBodyBytes: Math.round(e.MAX_BODY_MB * 1024 * 1024),
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    trustProxy: e.TRUST_PROXY,
  };
}
