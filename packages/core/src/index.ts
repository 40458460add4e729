export * from './auto-create/auto-create-cleanup.ts';
export * from './auto-create/auto-create-start.ts';
export * from './auto-create/auto-create-state.ts';
export * from './data/datasets/csv-to-parquet.ts';
export * from './data/datasets/dataset-schema.ts';
export * from './data/datasets/dataset-services.ts';
export * from './data/datasets/dataset-table-files.ts';
export * from './data/datasets/dataset-upload.ts';
export * from './data/datasets/datasets.ts';
export * from './data/datasets/table-file-cache.ts';
export * from './data/datasets/table-ingest.ts';
export * from './data/datasets/table-names.ts';
export * from './data/datasets/table-preview.ts';
export * from './data/executors.ts';
export * from './data/extractions/extractions-dataset.ts';
export { refreshExtractionsDataset } from './data/extractions/refresh-extractions.ts';
export * from './data/python/python-sandbox.ts';
export * from './data/runs/data-run-queries.ts';
export * from './data/runs/data-runs.ts';
export * from './data/runs/run-services.ts';
export { DuckDbSqlRunner, type SqlRunnerOptions } from './data/sql/duckdb-runner.ts';
export { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from './data/sql/duckdb-sandbox.ts';
export * from './data/sql/query-plan.ts';
export * from './data/sql/query-plan-compiler.ts';
export { checkSqlPolicy, SQL_POLICY_RULE } from './data/sql/sql-policy.ts';
export * from './data/sql/sql-runner-pool.ts';
export * from './db/database.ts';
export * from './db/embedded/wasm-tiering.ts';
export * from './db/migrate.ts';
export type { Notices } from './db/notices.ts';
export * from './db/page-with-total.ts';
export * from './db/prepared-query.ts';
export * as tables from './db/schema.ts';
export * from './db/statement-naming.ts';
export * from './display-names.ts';
export { type DocumentProgress, PROGRESS_STAGES, type ProgressStage } from './documents/document-progress.ts';
export * from './documents/document-text.ts';
export * from './documents/documents.ts';
export * from './documents/sniff.ts';
export * from './documents/text-extraction-job.ts';
export * from './documents/upload.ts';
export * from './errors.ts';
export {
  compareEvaluations,
  createEvaluation,
  type EvaluationComparison,
  type EvaluationRecord,
  type EvaluationReport,
  evaluationReport,
  getEvaluation,
  listEvaluations,
} from './evaluation/evaluations.ts';
export type { EvaluationDifference, EvaluationScore, FieldAccuracy } from './evaluation/score.ts';
export * from './events/event-bus.ts';
export { EXPORT_PAGE } from './export/export-query.ts';
export * from './export/prompt-export.ts';
export * from './extraction/batches/batch-progress.ts';
export {
  BATCH_ITEM_STATUSES,
  BATCH_LIMITS,
  type BatchItemRecord,
  type BatchItemStatus,
  type BatchRecord,
  type BatchScheduler,
  type BatchSelection,
  type BatchServices,
  cancelBatch,
  createBatch,
  getBatch,
  listBatches,
  listBatchItems,
  retryFailedItems,
} from './extraction/batches/prompt-batches.ts';
export * from './extraction/extraction-job.ts';
export * from './extraction/extraction-results.ts';
export * from './extraction/extraction-state.ts';
export * from './extraction/result-check.ts';
export * from './extraction/run-extraction.ts';
export * from './extraction/waiting-for-model.ts';
export * from './grounding/citation.ts';
export { citeResult } from './grounding/citations.ts';
export { type LeafValue, leafValues } from './grounding/leaf-values.ts';
export { normalizeText, parseAmount, parseDates, valueKeys } from './grounding/value-forms.ts';
export * from './identity/access.ts';
export * from './identity/account.ts';
export * from './identity/api-tokens.ts';
export * from './identity/bootstrap.ts';
export * from './identity/login.ts';
export * from './identity/members.ts';
export * from './identity/organizations.ts';
export * from './identity/preferences.ts';
export { generatePassword } from './identity/secrets.ts';
export * from './identity/sessions.ts';
export * from './identity/users.ts';
export * from './ids.ts';
export * from './jobs/job-queue.ts';
export * from './llm/llm-call.ts';
export * from './llm/llm-overview.ts';
export * from './llm/llm-settings.ts';
export * from './llm/model-catalog.ts';
export * from './llm/model-ids.ts';
export * from './llm/model-registry.ts';
export * from './llm/secret-box.ts';
export * from './llm/usage.ts';
export * from './llm/usage-summary.ts';
export * from './permissions/permission-rules.ts';
export { coveringRule, describeRule, ruleCovers } from './permissions/rule-match.ts';
export { matchesPattern, PATTERN_LIMITS, patternLike, patternProblems, type RulePattern } from './permissions/rule-pattern.ts';
export * from './projects/note-diff.ts';
export * from './projects/note-rules.ts';
export * from './projects/note-versions.ts';
export * from './projects/notes.ts';
export * from './projects/project-tables.ts';
export * from './projects/projects.ts';
export * from './prompts/prompts.ts';
export * from './schemas/inference/infer-schema.ts';
export * from './schemas/inference/schema-merge.ts';
export * from './schemas/schema-validation.ts';
export * from './schemas/schemas.ts';
export * from './scrub-errors.ts';
export * from './storage/blob-store.ts';
export * from './tags/tags.ts';
export * from './telemetry/tracing.ts';
export { type CommandExit, CommandHost, commandHost } from './text/command-host.ts';
export * from './text/extract-text.ts';
export type { OcrEngineName } from './text/ocr.ts';
export { tesseractCliAvailable } from './text/ocr.ts';
export { type PdfEngineName, pdftotextAvailable } from './text/pdf-engine.ts';
export * from './text/types.ts';
export * from './web-search/web-search.ts';
export {
  listWebhookDeliveries,
  redeliverWebhook,
  sendWebhookTest,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookDelivery,
  type WebhookScheduler,
} from './webhooks/deliveries.ts';
export { DEFAULT_WEBHOOK_RETRY_DELAYS_SECONDS } from './webhooks/delivery-job.ts';
export {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rollWebhookSecret,
  updateWebhookEndpoint,
  type WebhookEndpoint,
  type WebhookEndpointServices,
} from './webhooks/endpoints.ts';
export { WEBHOOK_EVENTS } from './webhooks/event-payloads.ts';
export { subscribeWebhooks } from './webhooks/subscriber.ts';
