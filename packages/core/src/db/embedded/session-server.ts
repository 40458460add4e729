import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { ClientStatements } from './statement-names.ts';

/**
 * Serves one PGlite database to many PostgreSQL clients over a Unix socket.
 *
 * PGlite is a single session, so the clients take turns on it. A turn is a whole request of
 * the wire protocol (a simple Query, or extended-protocol messages up to their Sync), never a
 * single message: two node-postgres clients each send Parse, Bind, Execute, Sync, and if
 * their messages interleaved, one would bind the other's unnamed statement. A client keeps
 * the session between its requests for as long as the session is not idle (the last
 * ReadyForQuery said "in a transaction" or "failed transaction", or the request ended without
 * one, as a COPY or a Flush does), so a transaction sees no other client's statements, as on
 * PostgreSQL. A client that disconnects while holding the session has its transaction rolled
 * back. (`@electric-sql/pglite-socket` queues single messages, which lets extended-protocol
 * requests of different connections interleave; hence this module.)
 */
export interface SessionServer {
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const QUERY = 0x51; // 'Q'
const SYNC = 0x53; // 'S'
const TERMINATE = 0x58; // 'X'
/** Messages after which a client waits for an answer without a Sync: Flush, and the end of COPY data. */
const FLUSH = 0x48; // 'H'
const COPY_DONE = 0x63; // 'c'
const COPY_FAIL = 0x66; // 'f'
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'

interface Connection {
  socket: Socket;
  /**
   * What arrived and is not yet part of a request, as it came: joined only once a whole message
   * is there (`needed` bytes), so that a statement of 100 MB sent in 64 KB pieces is copied once,
   * not once a piece.
   */
  pieces: Buffer[];
  bufferedBytes: number;
  needed: number;
  started: boolean;
  /** Complete requests waiting for the session, oldest first. */
  requests: Buffer[];
  statements: ClientStatements;
  closed: boolean;
}

export async function serveSession(pglite: PGlite, socketPath: string): Promise<SessionServer> {
  const waiting: Connection[] = [];
  const connections = new Set<Connection>();
  let holder: Connection | undefined;
  let running = false;
  let clients = 0;
  let closing = false;

  const runNext = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      for (;;) {
        const next = holder ?? waiting.find((c) => c.requests.length > 0);
        if (!next || next.requests.length === 0) break;
        const request = next.requests.shift() as Buffer;
        holder = (await execute(pglite, next, request)) ? undefined : next;
        if (!holder) moveToBack(waiting, next);
      }
    } finally {
      running = false;
    }
  };

  const release = async (connection: Connection): Promise<void> => {
    connection.closed = true;
    connections.delete(connection);
    // What it sent and was not run is dropped; its prepared statements are closed in its turn,
    // unless the whole session is ending.
    const cleanup = closing ? undefined : connection.statements.closing();
    connection.requests = cleanup ? [cleanup] : [];
    if (!cleanup) {
      const index = waiting.indexOf(connection);
      if (index >= 0) waiting.splice(index, 1);
    }
    if (holder !== connection) {
      if (cleanup) void runNext();
      return;
    }
    // Wait for a request of this client that is running, then undo what it left open.
    while (running) await new Promise((resolve) => setImmediate(resolve));
    if (holder === connection) {
      holder = undefined;
      if (pglite.isInTransaction()) await pglite.exec('rollback').catch(() => {});
    }
    void runNext();
  };

  const server = createServer((socket) => {
    const connection: Connection = {
      socket,
      pieces: [],
      bufferedBytes: 0,
      needed: 0,
      started: false,
      requests: [],
      statements: new ClientStatements(++clients),
      closed: false,
    };
    connections.add(connection);
    waiting.push(connection);
    socket.on('data', (data) => {
      connection.pieces.push(data);
      connection.bufferedBytes += data.length;
      if (connection.bufferedBytes >= connection.needed && takeRequests(connection)) void runNext();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => void release(connection));
  });

  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  // Only this user's processes may talk to the database: there is no password on a local socket.
  chmodSync(socketPath, 0o600);

  return {
    close: async () => {
      closing = true;
      for (const connection of connections) connection.socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      while (running) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

function moveToBack(list: Connection[], connection: Connection): void {
  const index = list.indexOf(connection);
  if (index >= 0) list.splice(index, 1);
  if (!connection.closed) list.push(connection);
}

/**
 * Moves the complete requests out of a connection's buffer; answers the SSL and cancel
 * requests itself. True when there is something to run.
 */
function takeRequests(connection: Connection): boolean {
  let queued = false;
  let pendingStart = 0;
  let offset = 0;
  const data = connection.pieces.length === 1 ? (connection.pieces[0] as Buffer) : Buffer.concat(connection.pieces);
  // Where the first message that is not whole yet ends (or its header, while that is cut).
  let wholeAt: number;
  for (;;) {
    if (!connection.started) {
      if (offset + 8 > data.length) {
        wholeAt = offset + 8;
        break;
      }
      const length = data.readInt32BE(offset);
      const code = data.readInt32BE(offset + 4);
      if (length < 8) {
        connection.socket.destroy();
        return false;
      }
      if (offset + length > data.length) {
        wholeAt = offset + length;
        break;
      }
      if (code === SSL_REQUEST) connection.socket.write('N');
      else if (code === CANCEL_REQUEST) connection.socket.end();
      else if (code === PROTOCOL_3) {
        connection.started = true;
        connection.requests.push(data.subarray(offset, offset + length));
        queued = true;
      } else {
        connection.socket.destroy();
        return false;
      }
      offset += length;
      pendingStart = offset;
      continue;
    }
    if (offset + 5 > data.length) {
      wholeAt = offset + 5;
      break;
    }
    const type = data[offset] as number;
    const length = data.readInt32BE(offset + 1);
    if (length < 4) {
      connection.socket.destroy();
      return false;
    }
    const end = offset + 1 + length;
    if (end > data.length) {
      wholeAt = end;
      break;
    }
    offset = end;
    if (type === TERMINATE) {
      connection.socket.end();
      pendingStart = offset;
    } else if (type === QUERY || type === SYNC || type === FLUSH || type === COPY_DONE || type === COPY_FAIL) {
      connection.requests.push(connection.statements.rewrite(Buffer.from(data.subarray(pendingStart, offset))));
      pendingStart = offset;
      queued = true;
    }
  }
  const rest = data.subarray(pendingStart);
  connection.pieces = rest.length > 0 ? [rest] : [];
  connection.bufferedBytes = rest.length;
  connection.needed = wholeAt - pendingStart;
  return queued;
}

/** Runs one request; true when it left the session idle (no transaction, nothing half done). */
async function execute(pglite: PGlite, connection: Connection, request: Buffer): Promise<boolean> {
  let tail = Buffer.alloc(0);
  try {
    await pglite.execProtocolRawStream(new Uint8Array(request.buffer, request.byteOffset, request.byteLength), {
      onRawData: (chunk) => {
        // A copy: PGlite reuses the memory the chunk is in, and the socket writes later.
        const answer = Buffer.from(chunk);
        if (!connection.closed) connection.socket.write(answer);
        tail = answer.length >= 6 ? answer.subarray(-6) : Buffer.concat([tail, answer]).subarray(-6);
      },
    });
  } catch {
    // PGlite answers SQL errors in the protocol; a throw means its session is unusable for this client.
    connection.socket.destroy();
    return !pglite.isInTransaction();
  }
  const endedReady = tail.length === 6 && tail[0] === READY_FOR_QUERY && tail.readInt32BE(1) === 5;
  return endedReady && tail[5] === IDLE;
}
