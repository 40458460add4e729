import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DomainError } from '../../errors.ts';
import type { PgliteThreadInput, PgliteThreadMessage } from './pglite-thread.ts';

const THREAD_URL = new URL('./pglite-thread.ts', import.meta.url);

/** node-postgres reaches a Unix socket as a folder and a port: the socket is `<folder>/.s.PGSQL.<port>`. */
export const EMBEDDED_PORT = 5432;
const socketFile = (folder: string) => join(folder, `.s.PGSQL.${EMBEDDED_PORT}`);
/** A Unix socket's path must fit in 108 bytes (sun_path); leave room. */
const MAX_SOCKET_PATH = 100;

export interface EmbeddedPostgres {
  /** The folder node-postgres takes as `host`. */
  socketFolder: string;
  close(): Promise<void>;
}

/**
 * Starts PGlite in a thread of its own, serving the PostgreSQL protocol on a Unix socket in
 * `socketFolder` (or, for a path too long for a socket, or a database in memory, in a private
 * temporary folder).
 */
export async function startEmbeddedPostgres(options: {
  dataDir?: string;
  socketFolder?: string;
  /** For a database in memory: a dump of a data folder it starts from (see PgliteThreadInput). */
  template?: string;
}): Promise<EmbeddedPostgres> {
  const wanted = options.socketFolder;
  const temporary = wanted === undefined || socketFile(wanted).length > MAX_SOCKET_PATH;
  const socketFolder = temporary ? mkdtempSync(join(tmpdir(), 'docagent-db-')) : wanted;
  const input: PgliteThreadInput = {
    dataDir: options.dataDir,
    template: options.template,
    socketPath: socketFile(socketFolder),
  };
  const thread = new Worker(THREAD_URL, { workerData: input });
  const cleanUp = () => {
    if (temporary) rmSync(socketFolder, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      thread.once('message', (message: PgliteThreadMessage) =>
        message.type === 'ready' ? resolve() : reject(new Error(message.type === 'failed' ? message.message : message.type)),
      );
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`the database thread exited with code ${code}`)));
    });
  } catch (error) {
    await thread.terminate();
    cleanUp();
    throw new DomainError('unavailable', `Could not start the embedded database: ${(error as Error).message}`, { cause: error });
  }
  thread.removeAllListeners();
  // A process that forgets to close its database may still exit; closing it cleanly is what `close` is for.
  thread.unref();
  let closing: Promise<void> | undefined;
  return {
    socketFolder,
    close: () => {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => {
          thread.once('message', () => resolve());
          thread.once('exit', () => resolve());
        });
        // Keep this process alive until the database has written its last page.
        thread.ref();
        thread.postMessage({ type: 'close' });
        await closed;
        await thread.terminate();
        cleanUp();
      })();
      return closing;
    },
  };
}
