import type { ChatDeps } from '@docagent/agent';
import type {
  AutoCreateServices,
  BatchServices,
  DataRunServices,
  Db,
  DocumentServices,
  EventBus,
  ExtractionServices,
  WaitingExtractionsScheduler,
} from '@docagent/core';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What every route file receives. */
export interface RouteDeps {
  db: Db;
  config: Config;
  documents: DocumentServices;
  /** The database and the model layer, for extraction and model settings. */
  extraction: ExtractionServices;
  /** The document agent. */
  agent: ChatDeps;
  /** Where an auto-create run asked for after upload is queued. */
  autoCreate: AutoCreateServices;
  /** Where documents that waited for a model are handed to their prompts' jobs once there is one. */
  waitingExtractions: WaitingExtractionsScheduler;
  /** Datasets, their ingest, and the executors data runs go through. */
  data: DataRunServices;
  /** Prompt batches: where their documents' jobs are queued. */
  batches: BatchServices;
  /** Domain events (notes changed, ...) for whoever listens in this process. */
  events: EventBus;
}
