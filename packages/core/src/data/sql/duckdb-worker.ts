import { ExecutionFailure } from '../executors.ts';
import { runSandboxedQuery } from './duckdb-query.ts';
import type { SqlWorkerMessage, SqlWorkerRequest } from './duckdb-worker-protocol.ts';

/**
 * Runs in a child process of the server, one per organization: DuckDB executes untrusted SQL
 * here, so a runaway query is ended with its process (SIGKILL), and a crash or an exhausted
 * memory takes only this process down. It answers one query at a time.
 */

const send = (message: SqlWorkerMessage) => process.send?.(message);

// Without its parent it has no one to answer: a server that died must not leave it behind.
process.on('disconnect', () => process.exit(0));

process.on('message', (request: SqlWorkerRequest) => {
  if (request.type !== 'run') return;
  runSandboxedQuery(request.query).then(
    (result) => send({ type: 'result', id: request.id, result }),
    (error: unknown) =>
      send(
        error instanceof ExecutionFailure
          ? { type: 'failed', id: request.id, kind: error.kind, message: error.message }
          : { type: 'failed', id: request.id, kind: 'error', message: String((error as Error).message ?? error) },
      ),
  );
});

send({ type: 'ready' });
