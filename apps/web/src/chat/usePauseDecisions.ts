import { useEffect, useState } from 'react';
import type { Approval } from '../api/chat';
import type { ToolCallInfo } from '../api/chatStream';
import type { Decision } from './ToolCallCard';
import type { InputRequest } from './useChatTurns';

/** Writes the rule behind "always approve": every call of the call's tool, or calls like it. */
export type AlwaysApprove = (call: ToolCallInfo, like: NonNullable<Decision['always']>) => Promise<unknown>;

/** The paused turn, as far as deciding on it goes. */
interface PausedTurn {
  pending: ToolCallInfo[];
  inputRequest: InputRequest | null;
  resume: (approvals: Approval[], input?: string) => Promise<void>;
}

/**
 * The person's decisions on a paused turn's calls and their answer to its question; the turn goes
 * on once every call is decided and any question is answered.
 */
export function usePauseDecisions(turn: PausedTurn, alwaysApprove: AlwaysApprove) {
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  const [ruleError, setRuleError] = useState<unknown>(null);

  // A new pause starts with no decisions.
  useEffect(() => {
    if (turn.pending.length > 0 || turn.inputRequest) setDecisions({});
  }, [turn.pending, turn.inputRequest]);

  function resumeIfReady(all: Record<string, Decision>, input: string | undefined) {
    if (!turn.pending.every((call) => all[call.id] !== undefined)) return;
    if (turn.inputRequest && input === undefined) return;
    const approvals: Approval[] = turn.pending.map((call) => {
      const decision = all[call.id] as Decision;
      return decision.arguments === undefined
        ? { call_id: call.id, approved: decision.approved }
        : { call_id: call.id, approved: decision.approved, arguments: decision.arguments };
    });
    void turn.resume(approvals, input);
  }

  async function decide(callId: string, decision: Decision) {
    const next = { ...decisions, [callId]: decision };
    setDecisions(next);
    const call = turn.pending.find((candidate) => candidate.id === callId);
    // The rule is stored before the turn goes on, so that it decides the turn's next calls too;
    // a rule that could not be stored leaves the approval of this call standing.
    if (decision.always && call) {
      setRuleError(null);
      await alwaysApprove(call, decision.always).catch(setRuleError);
    }
    resumeIfReady(next, undefined);
  }

  function decideAll(approved: boolean) {
    const next = { ...decisions };
    for (const call of turn.pending) {
      next[call.id] ??= { approved };
    }
    setDecisions(next);
    resumeIfReady(next, undefined);
  }

  function submitAnswer(text: string) {
    // Calls still undecided when the question is answered are rejected.
    const next = { ...decisions };
    for (const call of turn.pending) {
      next[call.id] ??= { approved: false };
    }
    setDecisions(next);
    resumeIfReady(next, text);
  }

  return {
    decisions,
    clearDecisions: () => setDecisions({}),
    decide,
    decideAll,
    submitAnswer,
    undecided: turn.pending.filter((call) => decisions[call.id] === undefined).length,
    /** Why an "always approve" rule was not stored, until the next one is tried. */
    ruleError,
  };
}
