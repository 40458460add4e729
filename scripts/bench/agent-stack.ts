import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@docagent/core';
import { demoHandler, type FakeLlmServer, type FakeReply, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import type { ApiClient } from './client.ts';
import { type BenchAccount, type BenchDb, createBenchDatabase, seedAccount, withDatabase } from './database.ts';
import { type RoundRobinProxy, startRoundRobinProxy } from './proxy.ts';
import { isAgentRequest } from './scripted-agent.ts';
import { type BenchServer, fakeProviderEnv, startBenchServer } from './server.ts';

export interface BenchOptions {
  db: BenchDb;
  /** Run the servers under `--cpu-prof`, writing profiles here. */
  profileDir?: string;
}

export interface AgentStack {
  fake: FakeLlmServer;
  servers: BenchServer[];
  /** The server, or the load balancer in front of the servers. */
  client: ApiClient;
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
  const dir = mkdtempSync(join(tmpdir(), 'docagent-bench-'));
  const fake = await startFakeLlm();
  fake.setHandler((request) => (isAgentRequest(request) ? options.agent(request) : demoHandler(request)));
  const database = await createBenchDatabase(options.db, dir);
  const servers: BenchServer[] = [];
  let proxy: RoundRobinProxy | undefined;
  const close = async () => {
    await proxy?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await fake.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const account = await withDatabase(database.target, async (db) => {
      const seeded = await seedAccount(db);
      await options.seed?.(db, seeded);
      return seeded;
    });
    const env = { ...fakeProviderEnv(fake, database.target), ...options.env };
    for (let i = 0; i < count; i++) servers.push(await startBenchServer(env, { profileDir: options.profileDir }));
    if (count > 1) proxy = await startRoundRobinProxy(servers.map((s) => s.url));
    return { fake, servers, client: { url: proxy?.url ?? servers[0]!.url, account }, close };
  } catch (error) {
    await close();
    throw error;
  }
}
