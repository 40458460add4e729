import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@docagent/core';
import { demoHandler, type FakeLlmServer, type FakeReply, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import type { ApiClient } from './client.ts';
import {
  type BenchAccount,
  type BenchDatabase,
  type BenchDb,
  createBenchDatabase,
  seedAccount,
  withDatabase,
} from './database.ts';
import { type RoundRobinProxy, startRoundRobinProxy } from './proxy.ts';
import { isAgentRequest } from './scripted-agent.ts';
import { type BenchServer, fakeProviderEnv, serverOfCheckout, startBenchServer } from './server.ts';

export interface BenchOptions {
  db: BenchDb;
  /** Run the servers under `--cpu-prof`, writing profiles here. */
  profileDir?: string;
  /** The root of another checkout whose server runs beside this one's, on a database of its own (engine only). */
  baseline?: string;
  /** Turns each engine server runs before the measured ones (engine only; its default otherwise). */
  warmUpTurns?: number;
  /** Runs of the measured levels, each on a stack of its own (concurrency only; its default 1). */
  runs?: number;
}

export interface AgentStack {
  fake: FakeLlmServer;
  servers: BenchServer[];
  /** The server, or the load balancer in front of the servers. */
  client: ApiClient;
  /** The baseline checkout's server, with the same provider and an account of its own, when one was asked for. */
  baseline?: { server: BenchServer; client: ApiClient };
  close(): Promise<void>;
}

export interface AgentStackOptions extends BenchOptions {
  /** The model's side of the agent's requests; the default prompt and extractions get schema-shaped answers. */
  agent: (request: RecordedRequest) => FakeReply;
  /** Server processes on the one database, behind a round-robin load balancer when more than one (PostgreSQL only). */
  servers?: number;
  /** Fills the database before any server opens it (bulk SQL, say). */
  seed?: (database: Database, account: BenchAccount) => Promise<void>;
  /** Settings of the servers beyond the shipped ones (a larger upload limit, say). */
  env?: NodeJS.ProcessEnv;
}

/**
 * docagent as a benchmark runs it: a fresh database with one account, the fake provider as
 * every model, and one or more `docagent serve` processes. `close` removes all of it.
 */
export async function startAgentStack(options: AgentStackOptions): Promise<AgentStack> {
  const count = options.servers ?? 1;
  if (count > 1 && options.db !== 'postgres') throw new Error('several servers need a PostgreSQL database');
  if (count > 1 && options.baseline) throw new Error('a baseline is compared with one server, not several');
  const fake = await startFakeLlm();
  fake.setHandler((request) => (isAgentRequest(request) ? options.agent(request) : demoHandler(request)));
  const dirs: string[] = [];
  const databases: BenchDatabase[] = [];
  const servers: BenchServer[] = [];
  let baseline: BenchServer | undefined;
  let proxy: RoundRobinProxy | undefined;
  const close = async () => {
    await proxy?.close();
    await Promise.all([...servers, ...(baseline ? [baseline] : [])].map((s) => s.stop()));
    await fake.close();
    for (const database of databases) await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  /** A fresh database with the account (and the seed), and the environment of a server on it. */
  const prepare = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docagent-bench-'));
    dirs.push(dir);
    const database = await createBenchDatabase(options.db, dir);
    databases.push(database);
    const account = await withDatabase(database.target, async (db) => {
      const seeded = await seedAccount(db);
      await options.seed?.(db, seeded);
      return seeded;
    });
    return { account, env: { ...fakeProviderEnv(fake, database.target), ...options.env } };
  };
  try {
    const { account, env } = await prepare();
    for (let i = 0; i < count; i++) servers.push(await startBenchServer(env, { profileDir: options.profileDir }));
    if (count > 1) proxy = await startRoundRobinProxy(servers.map((s) => s.url));
    const stack: AgentStack = { fake, servers, client: { url: proxy?.url ?? servers[0]!.url, account }, close };
    if (!options.baseline) return stack;
    // Its database is migrated and seeded by this checkout's code: compare checkouts of one schema.
    const other = await prepare();
    baseline = await startBenchServer(other.env, { bin: serverOfCheckout(options.baseline) });
    return { ...stack, baseline: { server: baseline, client: { url: baseline.url, account: other.account } } };
  } catch (error) {
    await close();
    throw error;
  }
}
