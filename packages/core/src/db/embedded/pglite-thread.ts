import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from './pglite-extensions.ts';
import { serveSession } from './session-server.ts';

/**
 * The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs every
 * statement synchronously, so here it blocks this thread and not the server's event loop.
 * Started by `startEmbeddedPostgres`, which holds the data folder's lock.
 */
export interface PgliteThreadInput {
  /** The PGlite data folder; none for a database in memory. */
  dataDir: string | undefined;
  /** For a database in memory: a dump of a data folder (PGlite's dumpDataDir, uncompressed) it starts from. */
  template: string | undefined;
  socketPath: string;
}

export type PgliteThreadMessage = { type: 'ready' } | { type: 'failed'; message: string } | { type: 'closed' };

const input = workerData as PgliteThreadInput;
const port = parentPort;
if (!port) throw new Error('pglite-thread.ts runs as a worker thread');

const post = (message: PgliteThreadMessage) => port.postMessage(message);

try {
  const pglite = await PGlite.create({
    ...(input.dataDir ? { dataDir: input.dataDir } : {}),
    ...(input.template && !input.dataDir ? { loadDataDir: new Blob([readFileSync(input.template)]) } : {}),
    extensions: pgliteExtensions,
  });
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
