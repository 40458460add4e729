/**
 * The document agent's Server-Sent Events, read from a fetch body (EventSource cannot POST).
 * The parsing is pure: text goes in as it arrives, whole frames come out.
 */

import type { AgentEvent, CallDecision, ToolCallInfo, TurnResult, TurnUsage } from '@docagent/agent/events';

export type { CallDecision, ToolCallInfo, TurnResult, TurnUsage };

/** The extraction the conversation works on: the prompt revision and its (possibly patched) values. */
export interface WorkingExtraction {
  promptRevid: string;
  values: unknown;
}

/** The frames of a turn: the engine's events (of either strategy), as the server sends them. */
export type ChatFrame = AgentEvent;

/** One event of the stream: its `id:` (null when it had none) and its `data:` lines joined. */
export interface SseEvent {
  id: string | null;
  data: string;
}

export interface SseParser {
  /** Takes the next piece of text and returns the events it completed. */
  push(text: string): SseEvent[];
  /** The stream ended: an event without its closing blank line is dropped, as the SSE spec says. */
  end(): SseEvent[];
}

/** An SSE parser (https://html.spec.whatwg.org/multipage/server-sent-events.html), for text in any chunking. */
export function createSseParser(): SseParser {
  let buffer = '';
  let data: string[] = [];
  let id: string | null = null;
  let lastId: string | null = null;

  function line(text: string, events: SseEvent[]) {
    if (text === '') {
      if (data.length > 0) events.push({ id: id ?? lastId, data: data.join('\n') });
      if (id !== null) lastId = id;
      data = [];
      id = null;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
  }

  return {
    push(text) {
      buffer += text;
      const events: SseEvent[] = [];
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        // A lone CR at the end may be the first half of CRLF: wait for the next piece.
        if (!match || (match[0] === '\r' && match.index === buffer.length - 1)) break;
        line(buffer.slice(0, match.index), events);
        buffer = buffer.slice(match.index + match[0].length);
      }
      return events;
    },
    end() {
      const events: SseEvent[] = [];
      if (buffer.endsWith('\r')) {
        line(buffer.slice(0, -1), events);
        buffer = '';
      }
      return events;
    },
  };
}

/** The frame an event carries, or null for data that is not a frame object with a type. */
export function frameOf(event: SseEvent): ChatFrame | null {
  try {
    const value: unknown = JSON.parse(event.data);
    if (typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string') {
      return value as ChatFrame;
    }
  } catch {
    // Not JSON: nothing a client of this API can act on.
  }
  return null;
}

/** Every frame in a complete stream text; for tests and replays. */
export function parseChatFrames(text: string): ChatFrame[] {
  const parser = createSseParser();
  return [...parser.push(text), ...parser.end()].map(frameOf).filter((frame) => frame !== null);
}

/** Takes a frame and the id of its event (null when it had none), to resume after it. */
export type FrameHandler = (frame: ChatFrame, eventId: string | null) => void;

/** Reads frames from a response body as they arrive, until the body ends (or its request is aborted). */
export async function readChatFrames(body: ReadableStream<Uint8Array>, onFrame: FrameHandler): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const events = done
        ? [...parser.push(decoder.decode()), ...parser.end()]
        : parser.push(decoder.decode(value, { stream: true }));
      for (const event of events) {
        const frame = frameOf(event);
        if (frame) onFrame(frame, event.id);
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
