import { callLlm, type LlmCallContext, type LlmCallOutcome, type LlmCallRequest, type ModelRegistry } from '@docagent/core';

/**
 * How the engine reaches models: in the product the model layer (limit check, ledger); in the
 * engine's own tests a scripted model. Every step of a turn is one `call`.
 */
export interface LlmGateway {
  /** The canonical id of the model a turn will use (the organization's default when none is asked for). */
  resolve(orgId: string, requested: string | null | undefined): Promise<string>;
  call<T>(
    request: LlmCallRequest,
    run: (context: LlmCallContext) => Promise<LlmCallOutcome<T>>,
  ): Promise<{ value: T; costUsd: number | null }>;
}

export function modelLayerGateway(registry: ModelRegistry): LlmGateway {
  return {
    resolve: async (orgId, requested) => (await registry.resolve(orgId, requested)).ref.id,
    call: (request, run) => callLlm(registry, request, run),
  };
}
