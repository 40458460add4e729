import pg from 'pg';
import type { ConnectionSettings } from './database.ts';

/**
 * Short messages between the processes on one database (a turn to stop, by its id): what one
 * process sends reaches the listeners of every process, this one included. Delivery is best
 * effort: a notice sent while a listener's connection is down is lost, so a listener must have
 * another way to learn the same thing later (a turn's stop flag, read at its next safe point).
 */
export interface Notices {
  notify(channel: string, payload: string): Promise<void>;
  /** Calls `onNotice` with each payload sent on `channel`; answers the function that ends that. */
  listen(channel: string, onNotice: (payload: string) => void): () => void;
  close(): Promise<void>;
}

/** Channel names are identifiers in LISTEN: lower-case letters and underscores only, so none needs quoting. */
const CHANNEL = /^[a-z_]{1,63}$/;
/** How long a listener waits before connecting again after losing its connection, doubled up to the longest. */
const FIRST_RECONNECT_MS = 500;
const LONGEST_RECONNECT_MS = 30_000;

type OnNotice = (payload: string) => void;

/** The listeners of a process, by channel; both kinds of notices deliver through it. */
class Listeners {
  private readonly byChannel = new Map<string, Set<OnNotice>>();

  /** Adds a listener; answers the function that removes it. */
  add(channel: string, onNotice: OnNotice): () => void {
    let set = this.byChannel.get(checkedChannel(channel));
    if (!set) {
      set = new Set();
      this.byChannel.set(channel, set);
    }
    set.add(onNotice);
    return () => {
      set.delete(onNotice);
    };
  }

  channels(): Iterable<string> {
    return this.byChannel.keys();
  }

  /**
   * Hands a notice to each listener of its channel. One that throws is reported, not passed on: it
   * would otherwise reach the sender (in this process) or the listening connection's message handling.
   */
  deliver(channel: string, payload: string): void {
    for (const onNotice of this.byChannel.get(channel) ?? []) {
      try {
        onNotice(payload);
      } catch (error) {
        process.emitWarning(`A listener of the notices on ${channel} failed: ${(error as Error).message}`);
      }
    }
  }

  clear(): void {
    this.byChannel.clear();
  }
}

function checkedChannel(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error(`A notice channel is lower-case letters and underscores (got "${channel}").`);
  return channel;
}

/**
 * The embedded database's notices stay in this process: one process holds it, and its session
 * server is one session that clients take turns on, so PostgreSQL's notifications would reach the
 * client that sent them, not a listener (job-queue.ts says the same of pg-boss's).
 */
export function processNotices(): Notices {
  const listeners = new Listeners();
  return {
    notify: async (channel, payload) => listeners.deliver(checkedChannel(channel), payload),
    listen: (channel, onNotice) => listeners.add(channel, onNotice),
    close: async () => listeners.clear(),
  };
}

/**
 * PostgreSQL's LISTEN/NOTIFY: notices go out through the pool (`pg_notify`), and come in on one
 * connection of their own, opened at the first listener and opened again, with a growing wait,
 * whenever it is lost (what was sent meanwhile is lost with it).
 */
export function postgresNotices(pool: pg.Pool, connection: ConnectionSettings): Notices {
  const listeners = new Listeners();
  /** The listening connection once it is up, with the channels it listens to. */
  let open: { client: pg.Client; channels: Set<string> } | undefined;
  let opening = false;
  let retryMs = FIRST_RECONNECT_MS;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const listenOn = (current: NonNullable<typeof open>, channel: string) => {
    if (current.channels.has(channel)) return;
    current.channels.add(channel);
    current.client.query(`listen ${channel}`).catch(() => lost(current.client));
  };

  const lost = (gone: pg.Client) => {
    if (open?.client === gone) open = undefined;
    gone.end().catch(() => {});
    if (closed || opening || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, retryMs).unref();
    retryMs = Math.min(retryMs * 2, LONGEST_RECONNECT_MS);
  };

  const connect = async () => {
    if (closed || opening || open) return;
    opening = true;
    const client = new pg.Client(connection);
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client.on('notification', ({ channel, payload }) => listeners.deliver(channel, payload ?? ''));
    try {
      await client.connect();
    } catch {
      opening = false;
      lost(client);
      return;
    }
    opening = false;
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    open = { client, channels: new Set() };
    retryMs = FIRST_RECONNECT_MS;
    for (const channel of listeners.channels()) listenOn(open, channel);
  };

  return {
    notify: async (channel, payload) => {
      await pool.query('select pg_notify($1, $2)', [checkedChannel(channel), payload]);
    },
    listen: (channel, onNotice) => {
      const leave = listeners.add(channel, onNotice);
      // A connection being opened listens to every channel known once it is up.
      if (open) listenOn(open, channel);
      else if (retry === undefined) void connect();
      return leave;
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      listeners.clear();
      const client = open?.client;
      open = undefined;
      await client?.end().catch(() => {});
    },
  };
}
