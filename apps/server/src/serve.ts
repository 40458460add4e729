import { bootstrapIfEmpty, type FirstStartCredentials, migrateDatabase, openDatabase } from '@docagent/core';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';

const SHUTDOWN_GRACE_MS = 30_000;

function firstStartBanner(baseUrl: string, creds: FirstStartCredentials): string {
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

/**
 * Opens and migrates the database, creates the first admin on an empty one, and serves
 * until SIGTERM or SIGINT, which stop taking requests and let in-flight ones finish.
 */
export async function serve(config: Config): Promise<void> {
  const database = await openDatabase(config.database, 'server');
  let app: Awaited<ReturnType<typeof buildApp>>;
  let firstStart: FirstStartCredentials | undefined;
  try {
    await migrateDatabase(database, async () => {
      firstStart = await bootstrapIfEmpty(database.db);
    });
    app = await buildApp({ config, db: database.db });
    app.addHook('onClose', async () => database.close());
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await database.close();
    throw error;
  }
  app.log.info({ database: database.describe }, 'docagent is ready');
  if (firstStart) {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    process.stdout.write(firstStartBanner(config.publicUrl ?? `http://localhost:${port}`, firstStart));
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting anyway');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
