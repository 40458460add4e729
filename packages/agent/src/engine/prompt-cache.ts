import type { ModelMessage, SystemModelMessage, ToolSet } from 'ai';

const EPHEMERAL = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** What a step sends: its instructions (the system message), the history and the tools. */
export interface StepPrompt {
  instructions: string | SystemModelMessage;
  messages: ModelMessage[];
  tools: ToolSet;
}

/**
 * Anthropic caches a prompt's prefix only up to the breakpoints it is given (at most four): one
 * after the tools (the same on every call), one after the system message (the same for a turn's
 * steps until the extraction changes) and one after the last message (the next step of the turn
 * starts with all of it). Other providers cache on their own and get the prompt unchanged.
 */
export function withCacheBreakpoints(provider: string, system: string, messages: ModelMessage[], tools: ToolSet): StepPrompt {
  if (provider !== 'anthropic') return { instructions: system, messages, tools };
  const names = Object.keys(tools);
  const lastTool = names.at(-1);
  const marked: ToolSet =
    lastTool === undefined
      ? tools
      : { ...tools, [lastTool]: { ...tools[lastTool], providerOptions: EPHEMERAL } as ToolSet[string] };
  const last = messages.at(-1);
  return {
    instructions: { role: 'system', content: system, providerOptions: EPHEMERAL },
    messages: last
      ? [...messages.slice(0, -1), { ...last, providerOptions: { ...last.providerOptions, ...EPHEMERAL } } as ModelMessage]
      : messages,
    tools: marked,
  };
}
