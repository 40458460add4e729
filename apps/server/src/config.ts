import { resolve } from 'node:path';
import {
  type DatabaseTarget,
  DEFAULT_WEBHOOK_RETRY_DELAYS_SECONDS,
  databaseTargetFromEnv,
  type ExecutionLimits,
  type LlmEnv,
  llmEnvOf,
  type TextExtractionLimits,
  type UploadLimits,
} from '@docagent/core';
import { z } from 'zod';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8700),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_NAMED_STATEMENTS: z.stringbool().default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAX_BODY_MB: z.coerce.number().positive().max(1024).default(1),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: z.stringbool().default(false),
  MAX_UPLOAD_MB: z.coerce.number().positive().max(4096).default(50),
  MAX_UPLOAD_REQUEST_MB: z.coerce.number().positive().max(8192).default(200),
  MAX_UPLOAD_FILES: z.coerce.number().int().min(1).max(1000).default(50),
  DOCAGENT_WORKERS: z.coerce.number().int().min(0).max(64).default(2),
  DOCAGENT_JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(30),
  TEXT_TIMEOUT_SECONDS: z.coerce.number().positive().max(86_400).default(600),
  MAX_PDF_PAGES: z.coerce.number().int().min(1).max(100_000).default(2000),
  DOCAGENT_SECRET: z.string().min(16, 'must have at least 16 characters').optional(),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  LLM_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(180),
  DOCAGENT_LLM_JOB_RETRIES: z.coerce.number().int().min(0).max(20).default(2),
  DOCAGENT_LLM_JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  DOCAGENT_AUTO_CREATE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(120),
  DOCAGENT_TURN_HEARTBEAT_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  DOCAGENT_INPUT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  DOCAGENT_RUN_MAX_ROWS: z.coerce.number().int().min(1).max(100_000).default(200),
  DOCAGENT_RUN_MAX_OUTPUT_KB: z.coerce
    .number()
    .int()
    .min(1)
    .max(64 * 1024)
    .default(256),
  DOCAGENT_SQL_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  DOCAGENT_SYNC_INGEST_MB: z.coerce.number().min(0).max(4096).default(20),
  SEARXNG_URL: z.url().optional(),
  TAVILY_API_KEY: z.string().min(1).optional(),
  TAVILY_BASE_URL: z.url().optional(),
  BRAVE_SEARCH_API_KEY: z.string().min(1).optional(),
  BRAVE_SEARCH_BASE_URL: z.url().optional(),
  DOCAGENT_REVIEW_CONFIDENCE: z.coerce.number().min(0).max(1).default(0.7),
  DOCAGENT_WEB_SEARCH_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(10),
  // Set but empty is how many deployments say "off".
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  OTEL_SERVICE_NAME: z.string().trim().min(1).default('docagent'),
  DOCAGENT_WEBHOOK_ALLOW_PRIVATE: z.stringbool().default(false),
  // `docagent mcp`: the running server to reach, and the API token to reach it with.
  DOCAGENT_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  DOCAGENT_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).optional()),
  DOCAGENT_WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().max(120).default(10),
  DOCAGENT_WEBHOOK_RETRY_DELAYS_SECONDS: z
    .string()
    .trim()
    .regex(/^(\d+(\s*,\s*\d+)*)?$/, 'must be whole seconds separated by commas, e.g. 30,120,600,3600,21600')
    .transform((v) => (v === '' ? [] : v.split(',').map((n) => Number(n.trim()))))
    .refine((delays) => delays.length <= 20, 'may list at most 20 delays')
    .optional(),
  TURN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(7 * 86_400)
    .default(300),
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
  upload: UploadLimits;
  /** Text-extraction jobs this process works on at once; 0 leaves them to `docagent worker` processes. */
  workers: number;
  jobHeartbeatSeconds: number;
  textLimits: Partial<TextExtractionLimits>;
  llm: {
    /** Provider keys, base URLs, model lists and DOCAGENT_DEFAULT_MODEL. */
    env: LlmEnv;
    /** Encrypts organizations' provider keys (DOCAGENT_SECRET); on the embedded database one is kept in DATA_DIR. */
    secret: string | undefined;
    maxRetries: number;
    timeoutMs: number;
    jobRetries: number;
    jobRetryDelaySeconds: number;
  };
  /** How long a paused agent turn waits for approval (from its last step). */
  turnTtlSeconds: number;
  /** How long an agent's question (request_input) waits for an answer before the turn ends. */
  inputTimeoutSeconds: number;
  /** The cap on one headless auto-create run. */
  autoCreateTimeoutMs: number;
  /** A running agent turn whose process is silent this long (it died) is ended as failed. */
  turnHeartbeatSeconds: number;
  data: {
    /** What one SQL or Python run may return and take. */
    runLimits: ExecutionLimits;
    /** Tables of documents up to this size are made during the request that adds them; larger ones by a job. */
    syncIngestMaxBytes: number;
  };
  /**
   * OpenTelemetry tracing: spans go over OTLP/HTTP to the endpoint when there is one (the exporter
   * reads the other OTEL_* variables itself); without it nothing is set up.
   */
  telemetry: { otlpEndpoint: string | undefined; serviceName: string };
  /** Extracted values less sure than this (0..1) are marked "review". */
  reviewConfidence: number;
  /** The notes agent's web search: the provider's settings (SearXNG by URL, Tavily or Brave by key) and its time limit. */
  webSearch: {
    env: Readonly<Record<string, string | undefined>>;
    timeoutMs: number;
  };
  /** For `docagent mcp`: the server it reaches (absent: one it starts on the local database) and the token it acts with. */
  mcp: { url?: string; token?: string };
  webhooks: {
    /** Endpoints on loopback, private, link-local or unique-local addresses are refused unless this is set. */
    allowPrivate: boolean;
    /** One attempt's bound. */
    timeoutMs: number;
    /** Waits before each retry; their count + 1 attempts in all. */
    retryDelaysSeconds: number[];
  };
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
    database: databaseTargetFromEnv({
      DATABASE_URL: e.DATABASE_URL,
      DATABASE_NAMED_STATEMENTS: e.DATABASE_NAMED_STATEMENTS,
      DATA_DIR: resolve(e.DATA_DIR),
    }),
    logLevel: e.LOG_LEVEL,
    maxBodyBytes: Math.round(e.MAX_BODY_MB * 1024 * 1024),
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    trustProxy: e.TRUST_PROXY,
    upload: {
      maxFileBytes: Math.round(e.MAX_UPLOAD_MB * 1024 * 1024),
      maxRequestBytes: Math.round(Math.max(e.MAX_UPLOAD_REQUEST_MB, e.MAX_UPLOAD_MB) * 1024 * 1024),
      maxFiles: e.MAX_UPLOAD_FILES,
    },
    workers: e.DOCAGENT_WORKERS,
    jobHeartbeatSeconds: e.DOCAGENT_JOB_HEARTBEAT_SECONDS,
    textLimits: { timeoutMs: e.TEXT_TIMEOUT_SECONDS * 1000, maxPages: e.MAX_PDF_PAGES },
    llm: {
      env: llmEnvOf(env),
      secret: e.DOCAGENT_SECRET,
      maxRetries: e.LLM_MAX_RETRIES,
      timeoutMs: e.LLM_TIMEOUT_SECONDS * 1000,
      jobRetries: e.DOCAGENT_LLM_JOB_RETRIES,
      jobRetryDelaySeconds: e.DOCAGENT_LLM_JOB_RETRY_DELAY_SECONDS,
    },
    turnTtlSeconds: e.TURN_TTL_SECONDS,
    inputTimeoutSeconds: e.DOCAGENT_INPUT_TIMEOUT_SECONDS,
    autoCreateTimeoutMs: e.DOCAGENT_AUTO_CREATE_TIMEOUT_SECONDS * 1000,
    turnHeartbeatSeconds: e.DOCAGENT_TURN_HEARTBEAT_SECONDS,
    reviewConfidence: e.DOCAGENT_REVIEW_CONFIDENCE,
    telemetry: { otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME },
    data: {
      runLimits: {
        maxRows: e.DOCAGENT_RUN_MAX_ROWS,
        maxOutputBytes: e.DOCAGENT_RUN_MAX_OUTPUT_KB * 1024,
        timeoutMs: e.DOCAGENT_SQL_TIMEOUT_SECONDS * 1000,
      },
      syncIngestMaxBytes: Math.round(e.DOCAGENT_SYNC_INGEST_MB * 1024 * 1024),
    },
    webSearch: {
      env: {
        SEARXNG_URL: e.SEARXNG_URL,
        TAVILY_API_KEY: e.TAVILY_API_KEY,
        TAVILY_BASE_URL: e.TAVILY_BASE_URL,
        BRAVE_SEARCH_API_KEY: e.BRAVE_SEARCH_API_KEY,
        BRAVE_SEARCH_BASE_URL: e.BRAVE_SEARCH_BASE_URL,
      },
      timeoutMs: e.DOCAGENT_WEB_SEARCH_TIMEOUT_SECONDS * 1000,
    },
    mcp: { url: e.DOCAGENT_URL, token: e.DOCAGENT_TOKEN },
    webhooks: {
      allowPrivate: e.DOCAGENT_WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: e.DOCAGENT_WEBHOOK_TIMEOUT_SECONDS * 1000,
      retryDelaysSeconds: e.DOCAGENT_WEBHOOK_RETRY_DELAYS_SECONDS ?? DEFAULT_WEBHOOK_RETRY_DELAYS_SECONDS,
    },
  };
}
