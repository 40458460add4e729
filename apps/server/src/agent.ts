import {
  AgentEngine,
  type ChatDeps,
  dataPack,
  documentPack,
  modelLayerGateway,
  notesPack,
  reactStrategy,
  roaStrategy,
  SubjectCatalog,
  ThreadStore,
  type ToolServices,
  TurnEventLog,
  TurnStore,
} from '@docagent/agent';
import { type EventBus, type ModelRegistry, type Notices, type WebSearchProvider, webSearchFromEnv } from '@docagent/core';
import type { Config } from './config.ts';

/**
 * The agent: engine with its packs and strategies, threads and the frame log, on the product's
 * model layer. `notices` carry stops to the turns of the process's other engine and of other processes.
 */
export function createAgent(
  services: ToolServices,
  llm: ModelRegistry,
  config: Config,
  bus?: EventBus,
  notices?: Notices,
): ChatDeps {
  const threads = new ThreadStore(services.db);
  const engine = new AgentEngine({
    llm: modelLayerGateway(llm),
    subjects: new SubjectCatalog([documentPack, dataPack, notesPack]),
    turns: new TurnStore(services.db, config.turnTtlSeconds, config.inputTimeoutSeconds),
    threads,
    services,
    heartbeatMs: (config.turnHeartbeatSeconds * 1000) / 3,
    strategies: [reactStrategy, roaStrategy],
    notices,
  });
  return { engine, threads, events: new TurnEventLog(services.db), bus };
}

/** The web search provider the configuration names (SearXNG, Tavily or Brave), or none. */
export function webSearchOf(config: Config): WebSearchProvider | null {
  return webSearchFromEnv(config.webSearch.env, { timeoutMs: config.webSearch.timeoutMs });
}
