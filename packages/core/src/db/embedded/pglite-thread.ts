import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { serveSession } from './session-server.ts';

/**
 * The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs every
 * statement synchronously, so here it blocks this thread and not the server's event loop.
 * Started by `startEmbeddedPostgres`, which holds the data folder's lock.
 */
export interface PgliteThreadInput {
  /** The PGlite data folder; none for a database in memory. */
  dataDir: string | undefined;
  socketPath: string;
}

export type PgliteThreadMessage = { type: 'ready' } | { type: 'failed'; message: string } | { type: 'closed' };

const input = workerData as PgliteThreadInput;
const port = parentPort;
if (!port) throw new Error('pglite-thread.ts runs as a worker thread');

const post = (message: PgliteThreadMessage) => port.postMessage(message);

try {
  // The extensions the migrations create; PGlite loads an extension's files only when asked to.
  const pglite = await PGlite.create({ ...(input.dataDir ? { dataDir: input.dataDir } : {}), extensions: { pg_trgm } });
  const server = await serveSession(pglite, input.socketPath);
  port.on('message', async (message: { type: 'close' }) => {
    if (message.type !== 'close') return;
    await server.close();
    await pglite.close();
    post({ type: 'closed' });
    port.close();
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', message: (error as Error).message });
}
