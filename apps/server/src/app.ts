import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { directCallDeps, sweepTurns } from '@docagent/agent';
import {
  type AutoCreateScheduler,
  type BatchScheduler,
  DatabaseBlobStore,
  type Db,
  type EventBus,
  type ModelRegistry,
  type Notices,
  type TableIngestScheduler,
  type TextExtractionScheduler,
  tableCacheDirOf,
  type WaitingExtractionsScheduler,
  type WebhookScheduler,
} from '@docagent/core';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createAgent, webSearchOf } from './agent.ts';
import type { Config } from './config.ts';
import { type ClosableExecutors, createDataExecutors, createDataServices, createTableIngest, type TableIngest } from './data.ts';
import { registerAuth } from './http/auth.ts';
import { answerFrameworkError, registerErrorHandling } from './http/errors.ts';
import { registerInputHygiene } from './http/input-hygiene.ts';
import { loggerOptions } from './http/logging.ts';
import { registerRequestTracing } from './http/request-tracing.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import type { RouteDeps, ZodApp } from './http/types.ts';
import { loggingEventBus } from './logging-event-bus.ts';
import { mcpRoutes } from './mcp/mcp-routes.ts';
import { accountRoutes } from './routes/account.ts';
import { agentRoutes } from './routes/agent.ts';
import { agentActRoutes } from './routes/agent-act.ts';
import { agentRunRoutes } from './routes/agent-runs.ts';
import { apiTokenRoutes } from './routes/api-tokens.ts';
import { authRoutes } from './routes/auth.ts';
import { autoCreateRoutes } from './routes/auto-create.ts';
import { chatRoutes } from './routes/chat.ts';
import { dataRunRoutes } from './routes/data-runs.ts';
import { datasetChatRoutes } from './routes/dataset-chat.ts';
import { datasetRowRoutes } from './routes/dataset-rows.ts';
import { datasetRoutes } from './routes/datasets.ts';
import { documentRoutes } from './routes/documents.ts';
import { evaluationRoutes } from './routes/evaluations.ts';
import { healthRoutes } from './routes/health.ts';
import { jsonSchemaRoutes } from './routes/json-schemas.ts';
import { llmRoutes } from './routes/llm.ts';
import { memberRoutes } from './routes/members.ts';
import { noteRoutes } from './routes/notes.ts';
import { ocrRoutes } from './routes/ocr.ts';
import { organizationRoutes } from './routes/organizations.ts';
import { permissionRuleRoutes } from './routes/permission-rules.ts';
import { projectRoutes } from './routes/projects.ts';
import { promptBatchRoutes } from './routes/prompt-batches.ts';
import { promptExportRoutes } from './routes/prompt-export.ts';
import { promptRoutes } from './routes/prompts.ts';
import { schemaInferenceRoutes } from './routes/schema-inference.ts';
import { tagRoutes } from './routes/tags.ts';
import { turnUndoRoutes } from './routes/turn-undo.ts';
import { usageRoutes } from './routes/usage.ts';
import { webAppRoutes } from './routes/web-app.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { agentSocketRoutes } from './ws/agent-ws-routes.ts';

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
const REQUEST_ID = /^[\w.:-]{1,128}$/;

export interface AppOptions {
  config: Config;
  db: Db;
  /**
   * Where uploads hand documents to the text pipeline, auto-create runs are queued, and documents
   * waiting for a model are handed on once there is one (the job queue).
   */
  scheduler: TextExtractionScheduler &
    AutoCreateScheduler &
    WaitingExtractionsScheduler &
    TableIngestScheduler &
    BatchScheduler &
    WebhookScheduler;
  /** The model layer every LLM call goes through. */
  llm: ModelRegistry;
  /** A pino instance or options; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
  webDistDir?: string;
  /**
   * Table ingest (the table-file cache and the DuckDB that converts files), owned by the caller: the
   * server shares its own with its job queue. Without it the app makes one on the system's temporary
   * directory and closes it with itself.
   */
  tableIngest?: TableIngest;
  /** The SQL and Python executors of data runs (default: this build's); the app closes them with itself. */
  dataExecutors?: ClosableExecutors;
  /** The process's event bus, shared with its job queue (default: the app's own). */
  events?: EventBus;
  /** The database's notices: a stop reaches a turn running in the job queue or another process at once. */
  notices?: Notices;
}

export async function buildApp(options: AppOptions): Promise<ZodApp> {
  const { config, db } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    bodyLimit: config.maxBodyBytes,
    trustProxy: config.trustProxy,
    frameworkErrors: (error, _request, reply) => answerFrameworkError(error, reply),
    // Callers may bring their own request id (a proxy's, say); otherwise we make one.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestTracing(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerSecurityHeaders(app);
  registerErrorHandling(app);
  registerInputHygiene(app);

  // DocRouter's SDK (axios with a default JSON content type) sends `Content-Type:
  // application/json` on bodiless DELETEs; FastAPI accepts that, so we do too.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && request.method === 'DELETE') return done(null, undefined);
    parseJson(request, body.toString(), done);
  });
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, {
    // File names arrive whole, so the upload service refuses a path rather than busboy cutting it to its last part.
    preservePath: true,
    // One past our own limits, so the upload service refuses first, with a message naming the file.
    limits: {
      fileSize: config.upload.maxFileBytes + 1,
      files: config.upload.maxFiles + 1,
      fields: 20,
      fieldSize: 64 * 1024,
      parts: config.upload.maxFiles + 20,
    },
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'docagent API', version: '0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API token (da_...) or a session token (ds_...)' },
          session: { type: 'apiKey', in: 'cookie', name: 'docagent_session' },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
    transform: jsonSchemaTransform,
  });
  registerAuth(app, db);

  const blobs = new DatabaseBlobStore(db);

  const ingest = options.tableIngest ?? createTableIngest(db, blobs, tableCacheDirOf());
  const executors = options.dataExecutors ?? createDataExecutors();
  // The SQL runners' child processes end with the app (requests have drained by then).
  app.addHook('onClose', async () => {
    await executors.close();
    if (!options.tableIngest) await ingest.close();
  });
  const data = createDataServices(ingest, executors, options.scheduler, config);
  const events = options.events ?? loggingEventBus(app.log);
  const extraction = { db, llm: options.llm, events };
  const documents = { db, blobs, scheduler: options.scheduler, events };
  const deps: RouteDeps = {
    db,
    config,
    documents,
    extraction,
    agent: createAgent(
      {
        db,
        documents,
        extraction,
        data,
        notes: { projects: { db, events }, webSearch: webSearchOf(config) },
        batches: { db, scheduler: options.scheduler },
        uploads: config.upload,
      },
      options.llm,
      config,
      events,
      options.notices,
    ),
    autoCreate: { db, scheduler: options.scheduler },
    waitingExtractions: options.scheduler,
    data,
    events,
    batches: { db, scheduler: options.scheduler },
  };
  // Turns whose server died end as failed; paused turns nobody continued, and finished ones past
  // their replay window, go. At start too: a restart is when dead turns are found.
  const sweep = () =>
    void sweepTurns(deps.agent, config.turnHeartbeatSeconds)
      .then(({ orphaned }) => orphaned > 0 && app.log.warn({ orphaned }, 'ended agent turns whose server had stopped'))
      .catch((error: Error) => app.log.warn({ err: error }, 'sweeping agent turns failed'));
  const sweeper = setInterval(sweep, Math.min(60, config.turnHeartbeatSeconds / 2) * 1000).unref();
  app.addHook('onReady', async () => sweep());
  app.addHook('onClose', async () => clearInterval(sweeper));
  healthRoutes(app, deps);
  authRoutes(app, deps);
  accountRoutes(app, deps);
  organizationRoutes(app, deps);
  apiTokenRoutes(app, deps);
  permissionRuleRoutes(app, deps);
  documentRoutes(app, deps);
  ocrRoutes(app, deps);
  jsonSchemaRoutes(app, deps);
  schemaInferenceRoutes(app, deps);
  promptRoutes(app, deps);
  promptBatchRoutes(app, deps);
  evaluationRoutes(app, deps);
  promptExportRoutes(app, deps);
  tagRoutes(app, deps);
  llmRoutes(app, deps);
  chatRoutes(app, deps);
  agentRoutes(app, deps);
  await agentSocketRoutes(app, deps);
  autoCreateRoutes(app, deps);
  agentRunRoutes(app, deps);
  turnUndoRoutes(app, deps);
  memberRoutes(app, deps);
  usageRoutes(app, deps);
  datasetRoutes(app, deps);
  projectRoutes(app, deps);
  noteRoutes(app, deps);
  agentActRoutes(app, deps);
  datasetChatRoutes(app, deps);
  datasetRowRoutes(app, deps);
  dataRunRoutes(app, deps);
  webhookRoutes(app, deps, options.scheduler);
  mcpRoutes(app, deps, directCallDeps(deps.agent.engine));
  app.get('/v0/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  await webAppRoutes(app, options.webDistDir ?? DEFAULT_WEB_DIST);

  return app;
}
