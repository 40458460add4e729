import type { ModelMessage, ToolResultPart } from 'ai';
import type { ToolRegistry } from '../tools/tool.ts';

/**
 * A result larger than this (about 1,000 tokens) is compacted once used. Characters, not tokens:
 * the engine has no tokenizer for every provider (Anthropic's is not public), the history window
 * counts characters too, and the same messages must compact the same way for every model. Below
 * it sit the ids, confirmations and schemas the model refers back to, which a stand-in would
 * barely shorten; above it, document text, query rows and web pages, which it cuts to a tenth or less.
 */
export const COMPACTED_RESULT_CHARS = 4_000;

/** Compaction asks the tools whether calling one again is harmless. */
type ToolLookup = Pick<ToolRegistry, 'get'>;

/**
 * The history as the model is sent it: a large result of an earlier turn that the model answered
 * after is replaced by a stand-in naming the call that reads it again; the messages given are not
 * changed (the thread, and the person, keep it whole).
 *
 * The rule depends only on the messages: a result is used once a later assistant message follows
 * it before the latest user message. Nothing of the current turn is compacted, so every step of a
 * turn sends the previous step's messages unchanged and Anthropic's prompt cache reads them. Only
 * read-only tools that ask nobody first are compacted: calling those again changes nothing and
 * spends no model call of its own; a write's result is the record of what it did.
 */
export function withUsedResultsCompacted(messages: ModelMessage[], tools: ToolLookup): ModelMessage[] {
  const currentTurn = messages.findLastIndex((m) => m.role === 'user');
  const lastAnswer = messages.slice(0, Math.max(currentTurn, 0)).findLastIndex((m) => m.role === 'assistant');
  if (lastAnswer === -1) return messages;
  const inputs = callInputs(messages);
  return messages.map((message, index) => {
    if (message.role !== 'tool' || index > lastAnswer) return message;
    const content = message.content.map((part) =>
      part.type === 'tool-result' && compactable(part, tools) ? standIn(part, inputs.get(part.toolCallId)) : part,
    );
    return { ...message, content };
  });
}

function compactable(part: ToolResultPart, tools: ToolLookup): boolean {
  const tool = tools.get(part.toolName);
  if (tool?.access !== 'read_only' || tool.asksFirst !== undefined) return false;
  return (part.output.type === 'json' || part.output.type === 'text') && sizeOf(part) > COMPACTED_RESULT_CHARS;
}

const sizeOf = (part: ToolResultPart) => JSON.stringify(part.output).length;

function standIn(part: ToolResultPart, input: unknown): ToolResultPart {
  const args = JSON.stringify(input ?? {});
  return {
    ...part,
    output: {
      type: 'text',
      value:
        `[Left out to save room: this ${part.toolName} result (${sizeOf(part)} characters) was read in an earlier turn. ` +
        `The person still sees it whole. To read it again, call ${part.toolName} with ${args}; it reads what is there now.]`,
    },
  };
}

function callInputs(messages: ModelMessage[]): Map<string, unknown> {
  const inputs = new Map<string, unknown>();
  for (const m of messages) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const part of m.content) if (part.type === 'tool-call') inputs.set(part.toolCallId, part.input);
  }
  return inputs;
}
