import { generateText, type ModelMessage } from 'ai';
import { isSmallModel } from './context.ts';
import type { EventSink } from './events.ts';
import { historyForStep } from './history.ts';
import { runStep, type StepOutcome } from './step.ts';
import { withUsedResultsCompacted } from './tool-result-compaction.ts';
import type { TurnRun } from './turn-run.ts';

const historyBudget = (modelId: string) => (isSmallModel(modelId) ? 12_000 : 48_000);

/**
 * One streamed LLM call of a turn with the subject's tools, through the model layer (limit,
 * ledger, usage). A strategy may add an instruction and take the streamed frames itself.
 */
export async function runModelStep(
  run: TurnRun,
  roundIndex: number,
  options: { instruction?: string; emit?: EventSink } = {},
): Promise<StepOutcome> {
  const { turn } = run;
  const base = await run.systemMessage();
  const system = options.instruction ? `${base}\n\n${options.instruction}` : base;
  return run.callModel('agent', async (context) => {
    const outcome = await runStep({
      model: context.model,
      modelId: turn.settings.model,
      system,
      messages: withUsedResultsCompacted(turn.messages, run.tools),
      tools: run.toolSet,
      roundIndex,
      historyBudgetTokens: historyBudget(turn.settings.model),
      emit: options.emit ?? run.emit,
      abortSignal: run.signal,
      maxRetries: context.maxRetries,
      timeoutMs: context.timeoutMs,
    });
    return { value: outcome, usage: outcome.usage };
  });
}

/**
 * One plain LLM call (no tools) over the turn's conversation and `instruction`, for strategies
 * that think between tool calls (roa's reason and observe). Answers the text.
 */
export async function runPlainCall(run: TurnRun, instruction: string, operation: string): Promise<string> {
  const { turn } = run;
  const system = `${await run.systemMessage()}\n\n${instruction}`;
  const provider = turn.settings.model.slice(0, turn.settings.model.indexOf(':'));
  const messages: ModelMessage[] = historyForStep(
    withUsedResultsCompacted(turn.messages, run.tools),
    provider,
    historyBudget(turn.settings.model),
  );
  return run.callModel(operation, async (context) => {
    const result = await generateText({
      model: context.model,
      system,
      messages,
      abortSignal: run.signal,
      maxRetries: context.maxRetries,
      timeout: context.timeoutMs,
    });
    return { value: result.text, usage: result.usage };
  });
}
