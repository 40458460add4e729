import { inSpan, markSpanFailed } from '@docagent/core';

/**
 * Runs one tool call in a span named as the GenAI conventions ask (`execute_tool {name}`). Its
 * arguments and result are never recorded: they hold documents' text and people's questions.
 * `propose` is the computing of a write's change before it is approved (see ToolDefinition).
 */
export function inToolSpan<Outcome extends { success: boolean }>(
  toolName: string,
  phase: 'run' | 'propose',
  work: () => Promise<Outcome>,
): Promise<Outcome> {
  return inSpan(
    `execute_tool ${toolName}`,
    { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': toolName, 'docagent.tool.phase': phase } },
    async (span) => {
      const outcome = await work();
      span.setAttribute('docagent.tool.outcome', outcome.success ? 'success' : 'error');
      // A failed call comes back to the model as a message rather than thrown; the span still says it failed.
      if (!outcome.success) markSpanFailed(span, 'tool_error');
      return outcome;
    },
  );
}
