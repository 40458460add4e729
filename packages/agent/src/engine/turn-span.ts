import { inSpan } from '@docagent/core';
import { SpanKind } from '@opentelemetry/api';
import type { TurnRun } from './turn-run.ts';

/**
 * Runs one run of a turn (from its start or a continuation to its next pause or end) in an
 * `invoke_agent` span, a child of whatever drives it: the HTTP request, the WebSocket message or
 * the auto-create job. Its model and tool calls nest under it. A turn that pauses for approval is
 * continued by another request, in another trace; `docagent.turn.id` ties its runs together.
 */
export function inTurnSpan<T>(run: TurnRun, resumed: boolean, work: () => Promise<T>): Promise<T> {
  const { turn } = run;
  return inSpan(
    'invoke_agent docagent',
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'docagent',
        ...(turn.threadId ? { 'gen_ai.conversation.id': turn.threadId } : {}),
        'docagent.turn.id': turn.id,
        'docagent.turn.strategy': turn.settings.strategy,
        'docagent.turn.model': turn.settings.model,
        'docagent.turn.subject_kind': turn.subject.kind,
        'docagent.turn.resumed': resumed,
      },
    },
    async (span) => {
      try {
        return await work();
      } finally {
        // paused, finished, stopped or failed: what the run left the turn as.
        span.setAttributes({ 'docagent.turn.status': turn.status, 'docagent.turn.steps': turn.progress.steps });
      }
    },
  );
}
