import { useEffect, useRef } from 'react';
import type { ChatItem } from './chatItems';
import { type Decision, ToolCallCard } from './ToolCallCard';

interface MessageListProps {
  items: ChatItem[];
  /** The person's answers to the pending calls, by call id. */
  decisions: Record<string, Decision>;
  onDecide: (callId: string, decision: Decision) => void;
  /** An approval is being sent. */
  busy: boolean;
  /** A turn is streaming: the last assistant message may still grow. */
  streaming: boolean;
}

function AssistantMessage({ text, thinking, growing }: { text: string; thinking: string; growing: boolean }) {
  return (
    <div className="max-w-[90%] space-y-1">
      {thinking !== '' && (
        <details className="rounded-md border border-slate-200 bg-slate-50 px-3 py-1.5 text-xs text-slate-600" open={false}>
          <summary className="cursor-pointer font-medium">{growing && text === '' ? 'Thinking…' : 'Thinking'}</summary>
          <p className="mt-1 whitespace-pre-wrap break-words">{thinking}</p>
        </details>
      )}
      {text !== '' && (
        <div className="rounded-lg rounded-tl-sm bg-white px-3 py-2 text-sm whitespace-pre-wrap break-words text-slate-900 shadow-xs ring-1 ring-slate-200">
          {text}
        </div>
      )}
    </div>
  );
}

/** The conversation: the person's messages, the agent's answers as they stream, and its tool calls. */
export function MessageList({ items, decisions, onDecide, busy, streaming }: MessageListProps) {
  const end = useRef<HTMLDivElement>(null);
  const last = items.at(-1);
  const lastSize = last?.kind === 'assistant' ? last.text.length + last.thinking.length : 0;

  // Follows the conversation as it grows; a person reading further up is left alone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the scroll follows the number and size of the items
  useEffect(() => {
    const list = end.current?.parentElement;
    if (!list) return;
    if (list.scrollHeight - list.scrollTop - list.clientHeight < 160) {
      list.scrollTop = list.scrollHeight;
    }
  }, [items.length, lastSize]);

  return (
    <div role="log" aria-label="Conversation" className="h-[28rem] space-y-3 overflow-y-auto rounded-md bg-slate-50 p-3">
      {items.length === 0 && (
        <p className="py-8 text-center text-sm text-slate-500">
          Ask the agent about this document, or ask it to create a schema, a prompt or tags for it.
        </p>
      )}
      {items.map((item, index) => {
        switch (item.kind) {
          case 'user':
            return (
              <div key={item.key} className="flex justify-end">
                <div className="max-w-[85%] rounded-lg rounded-tr-sm bg-slate-900 px-3 py-2 text-sm whitespace-pre-wrap break-words text-white">
                  {item.text}
                </div>
              </div>
            );
          case 'assistant':
            return (
              <AssistantMessage
                key={item.key}
                text={item.text}
                thinking={item.thinking}
                growing={streaming && index === items.length - 1}
              />
            );
          case 'tool':
            return (
              <ToolCallCard
                key={item.key}
                item={item}
                decision={decisions[item.callId]}
                onDecide={(decision) => onDecide(item.callId, decision)}
                busy={busy}
              />
            );
          case 'notice':
            return (
              <p key={item.key} className="text-center text-xs text-slate-500">
                {item.text}
              </p>
            );
          default:
            return null;
        }
      })}
      <div ref={end} />
    </div>
  );
}
