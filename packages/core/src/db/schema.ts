import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Citation } from '../grounding/citation.ts';
import type { ValueProbabilities } from '../grounding/value-probabilities.ts';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  // Stored lower-cased so that login and uniqueness ignore case.
  email: text('email').notNull().unique(),
  name: text('name').notNull().default(''),
  passwordHash: text('password_hash').notNull(),
  mustChangePassword: boolean('must_change_password').notNull().default(false),
  createdAt: createdAt(),
});

/** What the web app remembers for a person across browsers (panel layout, chat settings), one row a key. */
export const userPreferences = pgTable(
  'user_preferences',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').$type<unknown>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export const organizations = pgTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const memberships = pgTable(
  'memberships',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'user'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    // Null for tokens made by the CLI on behalf of the organization itself.
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_tokens_org_idx').on(t.orgId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    csrfToken: text('csrf_token').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

// Failed login counters, one row per throttle key ("account:<email>" or "ip:<address>"),
// kept in the database so that the limit holds across server processes.
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().default(sql`now()`),
});

export const blobs = pgTable('blobs', {
  id: text('id').primaryKey(),
  size: bigint('size', { mode: 'number' }).notNull(),
  sha256: text('sha256').notNull(),
  createdAt: createdAt(),
});

// Files are stored in fixed-size chunks so that reading and writing stream instead of
// holding a whole file in one value.
export const blobChunks = pgTable(
  'blob_chunks',
  {
    blobId: text('blob_id')
      .notNull()
      .references(() => blobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.blobId, t.seq] })],
);

export const DOCUMENT_STATES = [
  'uploaded',
  'ocr_processing',
  'ocr_completed',
  'ocr_failed',
  'llm_processing',
  'llm_completed',
  'llm_failed',
] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];

/**
 * Where a document's auto-create run is (seed 000 section 4.3): pending until its text is ready
 * (or while no provider is configured), running, then proposed or failed; a person's review
 * ends it in accepted or rejected.
 */
/** The stages that report how far they have got: pages with their text, prompts run. */
export const PROGRESS_STAGES = ['text', 'extraction'] as const;
export type ProgressStage = (typeof PROGRESS_STAGES)[number];

/** How far the stage under way on a document has got: `done` of `total` pages or prompts. */
export interface DocumentProgress {
  stage: ProgressStage;
  done: number;
  total: number;
}

export const AUTO_CREATE_STATUSES = ['pending', 'running', 'proposed', 'failed', 'accepted', 'rejected'] as const;
export type AutoCreateStatus = (typeof AUTO_CREATE_STATUSES)[number];

export const documents = pgTable(
  'documents',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    kind: text('kind', { enum: ['pdf', 'image', 'text', 'markdown', 'csv', 'xlsx'] }).notNull(),
    state: text('state', { enum: DOCUMENT_STATES }).notNull(),
    /** Why the last text extraction failed, for people to read. */
    stateError: text('state_error'),
    tagIds: text('tag_ids').array().notNull().default(sql`'{}'::text[]`),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    blobId: text('blob_id')
      .notNull()
      .references(() => blobs.id),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    uploadedBy: text('uploaded_by').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    pageCount: integer('page_count'),
    textExtractedAt: timestamp('text_extracted_at', { withTimezone: true }),
    /** Engines that produced the text, e.g. "pdf_text+tesseract_cli". */
    textEngine: text('text_engine'),
    /** Characters dropped from the extracted text because PostgreSQL cannot store them (NUL, unpaired surrogates). */
    textRemovedCharacters: integer('text_removed_characters').notNull().default(0),
    /** Set while a stage runs (document-progress.ts); null otherwise. */
    progress: jsonb('progress').$type<DocumentProgress>(),
    /** The upload asked for auto-create: the headless agent proposes a schema and a prompt. */
    autoCreate: boolean('auto_create').notNull().default(false),
    /** null when auto-create was not asked for. */
    autoCreateStatus: text('auto_create_status', { enum: AUTO_CREATE_STATUSES }),
    autoCreateSchemaRevid: text('auto_create_schema_revid'),
    autoCreatePromptRevid: text('auto_create_prompt_revid'),
    /** Why the run failed, or why it cannot start yet (no provider), for people to read. */
    autoCreateError: text('auto_create_error'),
    /** The headless turn's id, model, messages and working state, for the read-only replay. */
    autoCreateLog: jsonb('auto_create_log').$type<Record<string, unknown>>(),
    /** Attempts started (a crashed worker's job is retried). */
    autoCreateAttempts: integer('auto_create_attempts').notNull().default(0),
    autoCreateStartedAt: timestamp('auto_create_started_at', { withTimezone: true }),
    autoCreateDoneAt: timestamp('auto_create_done_at', { withTimezone: true }),
    /**
     * Since when the document's prompts wait for a model: their job found no LLM provider. Set
     * only then, so that configuring one schedules exactly the documents left behind.
     */
    llmWaitingSince: timestamp('llm_waiting_since', { withTimezone: true }),
  },
  (t) => [
    index('documents_org_uploaded_idx').on(t.orgId, t.uploadedAt, t.id),
    index('documents_llm_waiting_idx').on(t.orgId, t.llmWaitingSince).where(sql`llm_waiting_since is not null`),
    index('documents_org_auto_create_idx').on(t.orgId, t.autoCreateStatus),
    index('documents_tags_idx').using('gin', t.tagIds),
    // Name search is ILIKE '%text%': only a trigram index serves a pattern with a leading wildcard.
    index('documents_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

export const documentPages = pgTable(
  'document_pages',
  {
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    text: text('text').notNull(),
    width: real('width').notNull(),
    height: real('height').notNull(),
    engine: text('engine').notNull(),
    items: jsonb('items').notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.page] })],
);

// A schema is a stable id and a name; each change is a new, immutable revision (DocRouter's
// schema_revid) numbered from 1 (schema_version). Prompts work the same way.
export const schemas = pgTable(
  'schemas',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('schemas_org_name_idx').on(t.orgId, t.name)],
);

export const schemaRevisions = pgTable(
  'schema_revisions',
  {
    id: text('id').primaryKey(),
    schemaId: text('schema_id')
      .notNull()
      .references(() => schemas.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    // json, not jsonb: the order of properties is the order a model writes the fields in.
    responseFormat: json('response_format').$type<Record<string, unknown>>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('schema_revisions_version_idx').on(t.schemaId, t.version)],
);

export const prompts = pgTable(
  'prompts',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The organization's built-in summary prompt: always present, runs on every document. */
    isDefault: boolean('is_default').notNull().default(false),
    /**
     * Set while the prompt is an auto-create proposal for this document, awaiting review: it
     * runs on no other document until a person accepts it.
     */
    autoCreatePendingDocumentId: text('auto_create_pending_document_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('prompts_org_name_idx').on(t.orgId, t.name),
    uniqueIndex('prompts_org_default_idx').on(t.orgId).where(sql`is_default`),
  ],
);

export const promptRevisions = pgTable(
  'prompt_revisions',
  {
    id: text('id').primaryKey(),
    promptId: text('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    content: text('content').notNull(),
    schemaId: text('schema_id').references(() => schemas.id),
    schemaVersion: integer('schema_version'),
    model: text('model'),
    tagIds: text('tag_ids').array().notNull().default(sql`'{}'::text[]`),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('prompt_revisions_version_idx').on(t.promptId, t.version),
    index('prompt_revisions_schema_idx').on(t.schemaId),
    index('prompt_revisions_tags_idx').using('gin', t.tagIds),
  ],
);

export const tags = pgTable(
  'tags',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tags_org_name_idx').on(t.orgId, t.name)],
);

/** What a prompt revision answered for a document; one row per (document, prompt revision). */
export const extractionResults = pgTable(
  'extraction_results',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    promptId: text('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    promptRevid: text('prompt_revid')
      .notNull()
      .references(() => promptRevisions.id, { onDelete: 'cascade' }),
    promptVersion: integer('prompt_version').notNull(),
    model: text('model').notNull(),
    // json keeps the fields in the order the model wrote them (the schema's order).
    llmResult: json('llm_result').$type<Record<string, unknown>>().notNull(),
    updatedLlmResult: json('updated_llm_result').$type<Record<string, unknown>>().notNull(),
    isEdited: boolean('is_edited').notNull().default(false),
    isVerified: boolean('is_verified').notNull().default(false),
    /** Where each leaf of updated_llm_result is on the pages (grounding/citations.ts), kept in step with it. */
    citations: jsonb('citations').$type<Citation[]>().notNull().default([]),
    /** How sure the model was of each value of llm_result, by path, when its provider said (grounding/value-probabilities.ts). */
    valueProbabilities: jsonb('value_probabilities').$type<ValueProbabilities>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('extraction_results_doc_rev_idx').on(t.documentId, t.promptRevid),
    index('extraction_results_prompt_idx').on(t.promptId),
  ],
);

/**
 * The latest outcome of running a prompt on a document, whichever path ran it (the job after the
 * text, the API, the agent): the document's llm_* state is decided from these rows. One row per
 * (document, prompt), not per revision: a newer revision's success answers for the prompt.
 */
export const extractionOutcomes = pgTable(
  'extraction_outcomes',
  {
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    promptId: text('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    /** The revision that ran; no reference, since a removed revision does not undo what its run did. */
    promptRevid: text('prompt_revid').notNull(),
    succeeded: boolean('succeeded').notNull(),
    /** Why the run failed, for people to read; null after a success. */
    error: text('error'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.promptId] }), index('extraction_outcomes_prompt_idx').on(t.promptId)],
);

/** An organization's model choices and spending limit; no row means the server's defaults. */
export const orgLlmSettings = pgTable('org_llm_settings', {
  orgId: text('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  defaultModel: text('default_model'),
  /** null: every model of every configured provider. */
  enabledModels: text('enabled_models').array(),
  /** null: every enabled model is offered in the agent chat. */
  chatModels: text('chat_models').array(),
  /** Estimated spend per calendar month (UTC) after which LLM calls are refused; null: no limit. */
  monthlyLimitUsd: doublePrecision('monthly_limit_usd'),
  /** Whether uploads ask for auto-create when they do not say. */
  autoCreateDefault: boolean('auto_create_default').notNull().default(false),
  /** The model the headless auto-create agent uses; null: the default model. */
  autoCreateModel: text('auto_create_model'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An organization's own credentials or endpoint for a provider, overriding the server's environment. */
export const orgLlmProviders = pgTable(
  'org_llm_providers',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** Encrypted with the server secret (secret-box.ts); never returned in full. */
    apiKeyEncrypted: text('api_key_encrypted'),
    apiKeyPreview: text('api_key_preview'),
    baseUrl: text('base_url'),
    /** Model names served by an endpoint that has no catalogue (Ollama, vLLM, ...). */
    models: text('models').array().notNull().default(sql`'{}'::text[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.provider] })],
);

/** One row per LLM call: what it cost, for limits and reports. Kept when its document is deleted. */
export const usageLedger = pgTable(
  'usage_ledger',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    operation: text('operation').notNull(),
    documentId: text('document_id'),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    cachedTokens: integer('cached_tokens').notNull(),
    reasoningTokens: integer('reasoning_tokens').notNull(),
    /** null when the model has no price in the table. */
    costUsd: doublePrecision('cost_usd'),
    createdAt: createdAt(),
  },
  (t) => [index('usage_ledger_org_created_idx').on(t.orgId, t.createdAt)],
);

/**
 * An agent turn that is running or paused (waiting for approval or an answer). The engine
 * persists it after every step, so a paused turn survives a restart and can be continued by
 * any server process on the database; continuing consumes it (single use).
 */
export const agentTurns = pgTable(
  'agent_turns',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id'),
    /** What the conversation is about (document, dataset, project): checked by the subject's pack. */
    subjectKind: text('subject_kind').notNull(),
    subjectId: text('subject_id').notNull(),
    threadId: text('thread_id'),
    status: text('status', { enum: ['running', 'paused', 'finished', 'stopped', 'failed'] }).notNull(),
    /**
     * A turn without a thread: the conversation so far as AI SDK model messages, provider parts as
     * received. A turn on a thread keeps them on the thread. Here and below, json, not jsonb: jsonb
     * gives keys back in an order of its own, and a model's next request must repeat its earlier
     * calls and results as it first sent them, or the provider's prompt cache misses from there on.
     */
    messages: json('messages').$type<unknown[]>().notNull(),
    /** Which shape `pending`, `working_state`, `settings` and `progress` have (engine/turn-state.ts). */
    stateVersion: integer('state_version').notNull().default(1),
    /** The tool calls awaiting approval, or the question awaiting an answer. */
    pending: json('pending').$type<unknown>(),
    workingState: json('working_state').$type<Record<string, unknown>>().notNull(),
    /** auto_approve, auto_approved_tools, max_steps, model. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    /** Steps run so far, texts, thinking and usage, for the final body. */
    progress: jsonb('progress').$type<Record<string, unknown>>().notNull(),
    stopRequested: boolean('stop_requested').notNull().default(false),
    /** Renewed by the process running the turn; a running turn whose heartbeat is old lost its process. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('agent_turns_expires_idx').on(t.expiresAt),
    // One turn at a time on a thread: a second one would write the thread from a stale copy.
    uniqueIndex('agent_turns_active_thread_idx').on(t.threadId).where(sql`${t.status} in ('running', 'paused')`),
    index('agent_turns_running_idx').on(t.heartbeatAt).where(sql`${t.status} = 'running'`),
  ],
);

/** The frames a turn streamed, so a client that lost its connection can replay them (Last-Event-ID). */
export const agentTurnEvents = pgTable(
  'agent_turn_events',
  {
    turnId: text('turn_id')
      .notNull()
      .references(() => agentTurns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** As streamed (json: a replay sends the frame's keys in their order). */
    frame: json('frame').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.turnId, t.seq] })],
);

/** A conversation about a subject (document, dataset, project), of one user; it keeps every message. */
export const agentThreads = pgTable(
  'agent_threads',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id'),
    subjectKind: text('subject_kind').notNull(),
    subjectId: text('subject_id').notNull(),
    title: text('title').notNull(),
    /** AI SDK model messages, provider parts as received (json: see agent_turns). */
    messages: json('messages').$type<unknown[]>().notNull(),
    workingState: json('working_state').$type<Record<string, unknown>>().notNull(),
    model: text('model'),
    /** The loop strategy of the thread's turns: react or roa. */
    strategy: text('strategy').notNull().default('react'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_threads_subject_user_idx').on(t.subjectKind, t.subjectId, t.userId, t.updatedAt)],
);

/** The audit of an agent turn: every tool call with its input, output, approval and timing, and the usage. */
export const agentRunRecords = pgTable(
  'agent_run_records',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    turnId: text('turn_id').notNull(),
    userId: text('user_id'),
    subjectKind: text('subject_kind').notNull(),
    subjectId: text('subject_id').notNull(),
    model: text('model').notNull(),
    status: text('status').notNull(),
    toolCalls: jsonb('tool_calls').$type<unknown[]>().notNull(),
    usage: jsonb('usage').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_run_records_org_created_idx').on(t.orgId, t.createdAt)],
);

/** A named set of tables of an organization (seed 004), each table made from a CSV, TSV or XLSX document. */
export const datasets = pgTable(
  'datasets',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('datasets_org_name_idx').on(t.orgId, sql`lower(${t.name})`),
    index('datasets_org_created_idx').on(t.orgId, t.createdAt),
  ],
);

export const TABLE_STATUSES = ['pending', 'ready', 'failed'] as const;
export type TableStatus = (typeof TABLE_STATUSES)[number];

export interface TableColumn {
  name: string;
  /** DuckDB's type name: BIGINT, DOUBLE, VARCHAR, DATE, TIMESTAMP, BOOLEAN, ... */
  type: string;
}

/**
 * One table of a dataset: a CSV or TSV document, or one sheet of an XLSX document, ingested into a
 * Parquet file (what SQL reads) and a normalized CSV (what pandas reads), both stored as blobs. A
 * table keeps its data when its source document is deleted: the blobs are its own copy.
 */
export const datasetTables = pgTable(
  'dataset_tables',
  {
    id: text('id').primaryKey(),
    datasetId: text('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    /** The identifier SQL and Python use: lower-case, unique within the dataset. */
    tableName: text('table_name').notNull(),
    documentId: text('document_id').references(() => documents.id, { onDelete: 'set null' }),
    /** The XLSX sheet the table holds; null for CSV and TSV, and while a workbook waits for its ingest. */
    sheetName: text('sheet_name'),
    status: text('status', { enum: TABLE_STATUSES }).notNull(),
    /** Why the ingest failed, for people to read. */
    error: text('error'),
    columns: jsonb('columns').$type<TableColumn[]>().notNull().default([]),
    rowCount: bigint('row_count', { mode: 'number' }).notNull().default(0),
    /** Lines of the source that could not be read as rows (too many fields, broken quoting, bad bytes) and were left out. */
    skippedRows: bigint('skipped_rows', { mode: 'number' }).notNull().default(0),
    parquetBlobId: text('parquet_blob_id').references(() => blobs.id),
    parquetSha256: text('parquet_sha256'),
    csvBlobId: text('csv_blob_id').references(() => blobs.id),
    csvSha256: text('csv_sha256'),
    /**
     * For a table made from other data than a document (the built-in extractions dataset's):
     * `<prompt id>:<digest>` of the results it was built from, so that it is built again once they
     * change. Null for a table ingested from a document.
     */
    sourceVersion: text('source_version'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dataset_tables_name_idx').on(t.datasetId, t.tableName),
    index('dataset_tables_document_idx').on(t.documentId),
  ],
);

export const DATA_QUERY_MODES = ['sql', 'plan', 'python', 'chat'] as const;
export type DataQueryMode = (typeof DATA_QUERY_MODES)[number];
export const DATA_RUN_STATUSES = ['succeeded', 'failed', 'rejected'] as const;
export type DataRunStatus = (typeof DATA_RUN_STATUSES)[number];

/** What a run answered: the executor's capped result. */
export interface DataRunResult {
  columns: TableColumn[];
  rows: unknown[][];
  row_count: number;
  exec_time_ms: number;
  truncated: 'rows' | 'bytes' | null;
}

/** Why a run gave no result: seed 004's code (SQL_POLICY_VIOLATION, EXECUTION_ERROR, ...) and the engine's message. */
export interface DataRunError {
  code: string;
  message: string;
}

/** One SQL, query-plan or Python execution over a dataset, by the agent or directly (seed 004's run capsule). */
export const dataRuns = pgTable(
  'data_runs',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    // Runs hold rows of the dataset's data: they go with it.
    datasetId: text('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    question: text('question'),
    queryMode: text('query_mode', { enum: DATA_QUERY_MODES }).notNull(),
    planJson: jsonb('plan_json').$type<Record<string, unknown>>(),
    compiledSql: text('compiled_sql'),
    pythonCode: text('python_code'),
    status: text('status', { enum: DATA_RUN_STATUSES }).notNull(),
    result: jsonb('result').$type<DataRunResult>(),
    error: jsonb('error').$type<DataRunError>(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('data_runs_org_created_idx').on(t.orgId, t.createdAt, t.id),
    index('data_runs_dataset_created_idx').on(t.datasetId, t.createdAt, t.id),
  ],
);

/** A project: a name, a description, documents of the organization, and notes. */
export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /**
     * The dataset holding the tables of the project's CSV, TSV and XLSX documents, which the data
     * analyst queries in the project's conversations; made when the first such document is linked.
     */
    datasetId: text('dataset_id').references(() => datasets.id, { onDelete: 'set null' }),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('projects_org_name_idx').on(t.orgId, sql`lower(${t.name})`),
    index('projects_org_created_idx').on(t.orgId, t.createdAt),
  ],
);

/** A document of the organization linked to a project; unlinking or deleting the project leaves the document. */
export const projectDocuments = pgTable(
  'project_documents',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
    addedBy: text('added_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.documentId] }), index('project_documents_document_idx').on(t.documentId)],
);

export const NOTE_SOURCES = ['person', 'agent'] as const;

/** A Markdown note of a project, kept as its standing instruction says; `content` is its current version. */
export const notes = pgTable(
  'notes',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    standingInstruction: text('standing_instruction').notNull().default(''),
    content: text('content').notNull().default(''),
    /** The current version's number; each change of the content makes a new one. */
    version: integer('version').notNull().default(1),
    createdBy: text('created_by').notNull(),
    updatedBy: text('updated_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('notes_project_name_idx').on(t.projectId, sql`lower(${t.name})`)],
);

/** Every content a note had, the current one included. */
export const noteVersions = pgTable(
  'note_versions',
  {
    noteId: text('note_id')
      .notNull()
      .references(() => notes.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    content: text('content').notNull(),
    source: text('source', { enum: NOTE_SOURCES }).notNull(),
    /** What changed, in a line. */
    summary: text('summary').notNull().default(''),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.noteId, t.version] })],
);

export const BATCH_STATUSES = ['running', 'finished', 'cancelled'] as const;
export const BATCH_ITEM_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'cancelled'] as const;
/** A run stores its answers as the documents' results; an evaluation keeps them on its items and scores them. */
export const BATCH_KINDS = ['run', 'evaluation'] as const;
export type BatchItemStatus = (typeof BATCH_ITEM_STATUSES)[number];
export type BatchKind = (typeof BATCH_KINDS)[number];

/** A prompt revision run over many documents as jobs, one per document, with progress and a per-document outcome. */
export const promptBatches = pgTable(
  'prompt_batches',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    promptId: text('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    promptRevid: text('prompt_revid')
      .notNull()
      .references(() => promptRevisions.id, { onDelete: 'cascade' }),
    /** How the documents were chosen, as asked: `{document_ids}`, `{tag_ids}` or `{name_search}`. */
    selection: jsonb('selection').$type<Record<string, unknown>>().notNull(),
    kind: text('kind', { enum: BATCH_KINDS }).notNull().default('run'),
    status: text('status', { enum: BATCH_STATUSES }).notNull().default('running'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('prompt_batches_org_created_idx').on(t.orgId, t.createdAt)],
);

export const promptBatchItems = pgTable(
  'prompt_batch_items',
  {
    batchId: text('batch_id')
      .notNull()
      .references(() => promptBatches.id, { onDelete: 'cascade' }),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    status: text('status', { enum: BATCH_ITEM_STATUSES }).notNull().default('pending'),
    /** Why the document's run failed, for people to read. */
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** An evaluation's: the model's answer for the document (not stored as its result). */
    // json, not jsonb: keeps the fields in the order they were written (the schema's), as results do.
    answer: json('answer').$type<Record<string, unknown>>(),
    /** An evaluation's: the verified result the answer is scored against, as it was when the evaluation started. */
    expected: json('expected').$type<Record<string, unknown>>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.documentId] }), index('prompt_batch_items_status_idx').on(t.batchId, t.status)],
);

export const PERMISSION_EFFECTS = ['allow', 'deny'] as const;

/**
 * A standing decision on calls of a tool (`*`: every tool) whose arguments match `pattern` (JSON
 * path → glob; empty: any call): the organization's (no user) or one person's. Decided by the
 * agent's decision function for chat, auto-create and MCP alike (deny before ask before allow).
 */
export const permissionRules = pgTable(
  'permission_rules',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Null: a rule of the whole organization (admins make those); else the person's own. */
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    pattern: jsonb('pattern').$type<Record<string, string>>().notNull().default({}),
    effect: text('effect', { enum: PERMISSION_EFFECTS }).notNull(),
    note: text('note').notNull().default(''),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('permission_rules_org_idx').on(t.orgId, t.userId)],
);

/** Where an organization's events are pushed: a URL, the events it wants, and the secret its bodies are signed with. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Event types (`document.uploaded`, ...) it receives. */
    events: jsonb('events').$type<string[]>().notNull(),
    description: text('description').notNull().default(''),
    /** Encrypted with the server secret (secret-box.ts); shown to people once, when made. */
    secretEncrypted: text('secret_encrypted').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_org_idx').on(t.orgId)],
);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/** One event for one endpoint: its body as signed, and how sending it went (the delivery log). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The event's id, the same for every endpoint it goes to (receivers deduplicate on it). */
    eventId: text('event_id').notNull(),
    event: text('event').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** The receiver's HTTP status on the last attempt; null when it did not answer. */
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt)],
);
