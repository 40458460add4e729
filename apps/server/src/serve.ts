import {
  bootstrapIfEmpty,
  DatabaseBlobStore,
  type FirstStartCredentials,
  type JobQueue,
  migrateDatabase,
  openDatabase,
} from '@docagent/core';
import { type AppOptions, buildApp } from './app.ts';
import type { Config } from './config.ts';
import { tableIngestOf } from './data.ts';
import { startJobQueue } from './jobs.ts';
import { createModelRegistry } from './llm.ts';
import { loggingEventBus } from './logging-event-bus.ts';
import { closeOnSignal } from './shutdown.ts';
import { startTelemetry } from './telemetry.ts';

export function firstStartBanner(baseUrl: string, creds: FirstStartCredentials): string {
  const loginUrl = `${baseUrl}/login?email=${encodeURIComponent(creds.email)}`;
  return [
    '',
    '================ docagent: first start ================',
    'An admin user, an organization and an API token were created.',
    'They are shown this once and stored only as hashes.',
    '',
    `  Sign in:        ${loginUrl}`,
    `  Email:          ${creds.email}`,
    `  Password:       ${creds.password}   (one-time: you will be asked to choose a new one)`,
    `  Organization:   ${creds.orgName} (${creds.orgId})`,
    `  API token:      ${creds.apiToken}`,
    '',
    `  curl -H "Authorization: Bearer ${creds.apiToken}" ${baseUrl}/v0/orgs`,
    '=======================================================',
    '',
  ].join('\n');
}

/** A started server: its app, the port it listens on, and the first start's credentials when there was one. */
export interface StartedServer {
  app: Awaited<ReturnType<typeof buildApp>>;
  port: number;
  firstStart?: FirstStartCredentials;
}

/**
 * Opens and migrates the database, creates the first admin on an empty one, and listens. Closing
 * the app stops taking requests, lets in-flight ones and running jobs finish, then closes the rest.
 * `logger`: where the server logs (`docagent mcp` keeps stdout for the protocol).
 */
export async function startServer(config: Config, logger?: AppOptions['logger']): Promise<StartedServer> {
  startTelemetry(config);
  const database = await openDatabase(config.database, 'server');
  const tableIngest = tableIngestOf(database, new DatabaseBlobStore(database.db));
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let firstStart: FirstStartCredentials | undefined;
  let queue: JobQueue | undefined;
  try {
    await migrateDatabase(database, async () => {
      firstStart = await bootstrapIfEmpty(database.db);
    });
    const llm = createModelRegistry(database, config);
    // One bus for the process: documents the job queue reads announce themselves where the app listens.
    const events = loggingEventBus(() => app?.log);
    const jobs = await startJobQueue(database, config, config.workers, llm, tableIngest, events);
    queue = jobs;
    app = await buildApp({
      config,
      db: database.db,
      scheduler: jobs,
      llm,
      tableIngest,
      events,
      logger,
      notices: database.notices,
    });
    // Requests drain first (fastify closes the listener before onClose hooks), then running
    // jobs finish, then what they used closes.
    app.addHook('onClose', async () => {
      await jobs.stop();
      await tableIngest.close();
      await database.close();
    });
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await queue?.stop();
    await tableIngest.close();
    await database.close();
    throw error;
  }
  app.log.info({ database: database.describe, workers: config.workers }, 'docagent is ready');
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  database.announceServer(localUrlOf(config.host, port));
  return { app, port, firstStart };
}

/** How a process on this machine reaches a server listening on `host` (all interfaces: loopback). */
function localUrlOf(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return `http://127.0.0.1:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

/** `docagent serve`: serves until SIGTERM or SIGINT, which stop taking requests and let in-flight ones finish. */
export async function serve(config: Config): Promise<void> {
  const { app, port, firstStart } = await startServer(config);
  if (firstStart) process.stdout.write(firstStartBanner(config.publicUrl ?? `http://localhost:${port}`, firstStart));
  closeOnSignal(app.log, 'draining in-flight requests and running jobs', () => app.close());
}
