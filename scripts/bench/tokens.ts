import type { RecordedRequest } from '@docagent/fake-llm';
import type { ModelMessage } from 'ai';
import { countTokens } from 'gpt-tokenizer';

/**
 * Token counts of what a model is sent, with the o200k tokenizer (GPT-4o, GPT-4.1): the text
 * a model reads (tool definitions, system message, message texts, tool calls and results), in
 * the order a provider caches a prompt's prefix: tools, system, messages. Anthropic's tokenizer
 * is not public; the same counts stand in for it.
 */

export interface Segment {
  section: 'tools' | 'system' | 'messages';
  text: string;
  /** Carries a cache breakpoint (Anthropic's `cache_control`): the prefix up to here may be cached. */
  breakpoint: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: provider request items, read field by field
type Item = any;

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

function blockText(block: Item): string {
  switch (block.type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return block.text;
    case 'thinking':
      return block.thinking;
    case 'tool_use':
      return `${block.name} ${json(block.input)}`;
    case 'tool_result':
      return typeof block.content === 'string' ? block.content : (block.content as Item[]).map(blockText).join('');
    default:
      return '';
  }
}

const contentText = (content: Item) => (typeof content === 'string' ? content : (content as Item[]).map(blockText).join(''));

function responsesItemText(item: Item): string {
  if (item.type === 'function_call') return `${item.name} ${item.arguments}`;
  if (item.type === 'function_call_output') return json(item.output);
  if (item.type === 'reasoning') return (item.summary as Item[]).map((s) => s.text).join('');
  return contentText(item.content);
}

/** The request as its model reads it. OpenAI Responses and Anthropic Messages bodies. */
export function segmentsOf(request: RecordedRequest): Segment[] {
  const body = request.body;
  const tools: Segment[] = (body.tools ?? []).map((t: Item) => ({
    section: 'tools',
    text: `${t.name} ${t.description ?? ''} ${json(t.parameters ?? t.input_schema)}`,
    breakpoint: Boolean(t.cache_control),
  }));
  if (request.protocol === 'anthropic-messages') {
    const system: Item[] = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
    return [
      ...tools,
      ...system.map((b): Segment => ({ section: 'system', text: b.text, breakpoint: Boolean(b.cache_control) })),
      ...(body.messages as Item[]).flatMap((m) =>
        typeof m.content === 'string'
          ? [{ section: 'messages' as const, text: m.content, breakpoint: false }]
          : (m.content as Item[]).map(
              (b): Segment => ({ section: 'messages', text: blockText(b), breakpoint: Boolean(b.cache_control) }),
            ),
      ),
    ];
  }
  const instructions: Segment[] = body.instructions ? [{ section: 'system', text: body.instructions, breakpoint: false }] : [];
  return [
    ...tools,
    ...instructions,
    ...(body.input as Item[]).map(
      (item): Segment => ({
        section: item.role === 'system' || item.role === 'developer' ? 'system' : 'messages',
        text: responsesItemText(item),
        breakpoint: false,
      }),
    ),
  ];
}

/** A stored conversation message as a model reads it, whatever the provider. */
export function messageText(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return (message.content as Item[])
    .map((part) => {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          return part.text;
        case 'tool-call':
          return `${part.toolName} ${json(part.input)}`;
        case 'tool-result':
          return part.output?.type === 'json' ? json(part.output.value) : String(part.output?.value ?? '');
        default:
          return '';
      }
    })
    .join('');
}

export const tokens = (text: string) => countTokens(text);

/** All tokens, and those of the prefix up to the last cache breakpoint. */
export function countSegments(segments: Segment[]): { total: number; cacheable: number } {
  const counts = segments.map((s) => tokens(s.text));
  const lastBreakpoint = segments.findLastIndex((s) => s.breakpoint);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return { total: sum(counts), cacheable: sum(counts.slice(0, lastBreakpoint + 1)) };
}

/**
 * For each call, the tokens Anthropic's prompt cache could serve: the longest prefix that an
 * earlier call wrote (the prefix up to one of its breakpoints) and that this call sends again
 * unchanged, within its own cacheable part. A change early in the prompt (a system message that
 * moved, a result compacted) makes everything after it be sent anew.
 */
export function cacheReads(calls: Segment[][]): number[] {
  return calls.map((segments, i) => {
    const counts = segments.map((s) => tokens(s.text));
    const lastBreakpoint = segments.findLastIndex((s) => s.breakpoint);
    let best = 0;
    for (const earlier of calls.slice(0, i)) {
      let same = 0;
      while (same < Math.min(earlier.length, segments.length) && earlier[same]!.text === segments[same]!.text) same++;
      earlier.forEach((segment, p) => {
        if (segment.breakpoint && p < same && p <= lastBreakpoint)
          best = Math.max(
            best,
            counts.slice(0, p + 1).reduce((a, b) => a + b, 0),
          );
      });
    }
    return best;
  });
}
