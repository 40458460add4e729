import type { ModelMessage } from 'ai';

/** Roughly 4 characters a token: enough to keep a window within a model's context. */
const CHARS_PER_TOKEN = 4;

type Part = { type: string; providerOptions?: Record<string, unknown>; [key: string]: unknown };

const partsOf = (m: ModelMessage): Part[] | undefined => (Array.isArray(m.content) ? (m.content as Part[]) : undefined);

/**
 * Provider-specific parts (Anthropic thinking signatures, OpenAI reasoning items, Gemini thought
 * signatures) are kept as received and sent back to the same provider; for another provider
 * they are dropped, because it could neither read nor verify them.
 */
export function forProvider(messages: ModelMessage[], provider: string): ModelMessage[] {
  return messages.map((message) => {
    const parts = partsOf(message);
    if (!parts || message.role !== 'assistant') return message;
    const kept = parts
      .filter((p) => p.type !== 'reasoning' || (p.providerOptions !== undefined && provider in p.providerOptions))
      .map((p) => {
        if (!p.providerOptions) return p;
        const own = p.providerOptions[provider];
        const { providerOptions: _dropped, ...rest } = p;
        return own === undefined ? rest : { ...rest, providerOptions: { [provider]: own } };
      });
    return { ...message, content: kept } as ModelMessage;
  });
}

/**
 * Every assistant tool call followed by its results, or reduced to text: a history whose call
 * has no result (a crash between the two) is refused by every provider.
 */
export function withoutOrphanedCalls(messages: ModelMessage[]): ModelMessage[] {
  const answered = new Set<string>();
  for (const m of messages) {
    if (m.role === 'tool') for (const p of partsOf(m) ?? []) if (typeof p.toolCallId === 'string') answered.add(p.toolCallId);
  }
  return messages.map((message) => {
    const parts = partsOf(message);
    if (message.role !== 'assistant' || !parts) return message;
    const content = parts.map((p) =>
      p.type === 'tool-call' && typeof p.toolCallId === 'string' && !answered.has(p.toolCallId)
        ? { type: 'text', text: `(called ${String(p.toolName)} with ${JSON.stringify(p.input)}; it did not run)` }
        : p,
    );
    return { ...message, content } as ModelMessage;
  });
}

/**
 * The calls as they ran: a person may edit a call's arguments before approving it, and the
 * history then says what was done (for the model's next step and for anyone reading the thread).
 */
export function withCallInputs(messages: ModelMessage[], inputs: Map<string, unknown>): ModelMessage[] {
  if (inputs.size === 0) return messages;
  return messages.map((message) => {
    const parts = partsOf(message);
    if (message.role !== 'assistant' || !parts) return message;
    const content = parts.map((p) =>
      p.type === 'tool-call' && typeof p.toolCallId === 'string' && inputs.has(p.toolCallId)
        ? { ...p, input: inputs.get(p.toolCallId) }
        : p,
    );
    return { ...message, content } as ModelMessage;
  });
}

const sizeOf = (m: ModelMessage) => JSON.stringify(m.content).length;

/**
 * The most recent messages that fit the budget, never starting inside a tool exchange: the
 * window begins at a user message, so no tool result is sent without the call it answers.
 * The newest user message is always kept.
 */
export function windowed(messages: ModelMessage[], budgetTokens: number): ModelMessage[] {
  const budget = budgetTokens * CHARS_PER_TOKEN;
  let used = 0;
  let start = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    used += sizeOf(messages[i] as ModelMessage);
    if (used > budget && start < messages.length) break;
    if (messages[i]?.role === 'user') start = i;
  }
  return messages.slice(start === messages.length ? Math.max(0, messages.length - 1) : start);
}

/** The history as one step sends it. */
export function historyForStep(messages: ModelMessage[], provider: string, budgetTokens: number): ModelMessage[] {
  return windowed(withoutOrphanedCalls(forProvider(messages, provider)), budgetTokens);
}
