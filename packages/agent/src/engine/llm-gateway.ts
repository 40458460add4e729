import {
  callLlm,
  type LlmCallContext,
  type LlmCallOutcome,
  type LlmCallRequest,
  type ModelRegistry,
  type OrgModels,
} from '@docagent/core';
import { ReadOnce } from './read-once.ts';

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
  /**
   * The gateway of one run of a turn: the organization's model choices and usage limit are read
   * once for the run (no tool changes them; an admin's change applies from the turn's next run),
   * the month's spend before every call as always, so the limit still stops the call that would
   * go past it, also when other turns spent meanwhile.
   */
  forRun(): LlmGateway;
}

type Snapshot = (orgId: string) => Promise<OrgModels>;

export function modelLayerGateway(registry: ModelRegistry, snapshot: Snapshot = (orgId) => registry.snapshot(orgId)): LlmGateway {
  return {
    resolve: async (orgId, requested) => registry.resolveIn(await snapshot(orgId), requested).ref.id,
    call: async (request, run) => callLlm(registry, { ...request, models: await snapshot(request.orgId) }, run),
    forRun: () => modelLayerGateway(registry, readOnce(snapshot)),
  };
}

function readOnce(snapshot: Snapshot): Snapshot {
  const models = new ReadOnce<OrgModels>();
  return (orgId) => models.get(orgId, () => snapshot(orgId));
}
