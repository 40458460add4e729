import {
  AgentEngine,
  type ChatDeps,
  dataPack,
  documentPack,
  modelLayerGateway,
  reactStrategy,
  roaStrategy,
  SubjectCatalog,
  ThreadStore,
  type ToolServices,
  TurnEventLog,
  TurnStore,
} from '@docagent/agent';
import type { ModelRegistry } from '@docagent/core';
import type { Config } from './config.ts';

/** The agent: engine with its packs and strategies, threads and the frame log, on the product's model layer. */
export function createAgent(services: ToolServices, llm: ModelRegistry, config: Config): ChatDeps {
  const threads = new ThreadStore(services.db);
  const engine = new AgentEngine({
    llm: modelLayerGateway(llm),
    subjects: new SubjectCatalog([documentPack, dataPack]),
    turns: new TurnStore(services.db, config.turnTtlSeconds, config.inputTimeoutSeconds),
    threads,
    services,
    heartbeatMs: (config.turnHeartbeatSeconds * 1000) / 3,
    strategies: [reactStrategy, roaStrategy],
  });
  return { engine, threads, events: new TurnEventLog(services.db) };
}
