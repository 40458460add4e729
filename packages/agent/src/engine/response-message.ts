import type { AssistantContent, ContentPart, JSONValue, ModelMessage, ToolSet } from 'ai';

type AssistantPart = Exclude<AssistantContent, string>[number];

/** A provider-run tool's result as the model reads it back: text as text, anything else as JSON. */
function providerToolOutput(output: unknown, failed: boolean) {
  const value = JSON.parse(JSON.stringify(output ?? null)) as JSONValue;
  if (failed) return { type: 'error-json' as const, value };
  return typeof output === 'string' ? { type: 'text' as const, value: output } : { type: 'json' as const, value };
}

/**
 * The assistant message of one model call, from the content the call produced, as the AI SDK's
 * `streamText` writes it (its `toResponseMessages`): every part keeps its provider metadata as
 * provider options, so that Anthropic's thinking signatures and OpenAI's reasoning items replay
 * in the next request. Our tools run in the engine, never in the SDK, so a call's content holds
 * no local tool results or SDK approvals; a provider-run tool's result stays in the message,
 * next to its call, as `streamText` keeps it. None when the call produced nothing to keep.
 */
export function responseMessagesOf(content: ReadonlyArray<ContentPart<ToolSet>>): ModelMessage[] {
  const parts: AssistantPart[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        if (part.text.length > 0 || part.providerMetadata != null) {
          parts.push({ type: 'text', text: part.text, providerOptions: part.providerMetadata });
        }
        break;
      case 'reasoning':
        parts.push({ type: 'reasoning', text: part.text, providerOptions: part.providerMetadata });
        break;
      case 'custom':
        parts.push({ type: 'custom', kind: part.kind, providerOptions: part.providerMetadata });
        break;
      case 'file':
      case 'reasoning-file':
        parts.push({
          type: part.type,
          data: part.file.base64,
          mediaType: part.file.mediaType,
          providerOptions: part.providerMetadata,
        });
        break;
      case 'tool-call':
        parts.push({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.invalid && typeof part.input !== 'object' ? {} : part.input,
          providerExecuted: part.providerExecuted,
          providerOptions: part.providerMetadata,
        });
        break;
      case 'tool-result':
      case 'tool-error':
        if (part.providerExecuted) {
          parts.push({
            type: 'tool-result',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            output: providerToolOutput(part.type === 'tool-result' ? part.output : part.error, part.type === 'tool-error'),
            providerOptions: part.providerMetadata,
          });
        }
        break;
      default:
        // Sources are shown, not replayed; approvals are the engine's, not the SDK's.
        break;
    }
  }
  return parts.length > 0 ? [{ role: 'assistant', content: parts }] : [];
}
