import {
  AgentEngine,
  type ChatDeps,
  createDocumentToolRegistry,
  modelLayerGateway,
  ThreadStore,
  type ToolContext,
  TurnEventLog,
  TurnStore,
} from '@docagent/agent';
import type { ModelRegistry } from '@docagent/core';
import type { Config } from './config.ts';

/** The document agent: engine, threads and the frame log, on the product's model layer. */
export function createDocumentAgent(services: ToolContext['services'], llm: ModelRegistry, config: Config): ChatDeps {
  const engine = new AgentEngine({
    llm: modelLayerGateway(llm),
    tools: createDocumentToolRegistry(),
    turns: new TurnStore(services.db, config.turnTtlSeconds),
    services,
    heartbeatMs: (config.turnHeartbeatSeconds * 1000) / 3,
  });
  return { engine, threads: new ThreadStore(services.db), events: new TurnEventLog(services.db) };
}
