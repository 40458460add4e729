import type { ChatItem } from './chatItems';
import { ChatMarkdown } from './Markdown';
import { ThinkingBlock } from './ThinkingBlock';

interface AssistantMessageProps {
  item: Extract<ChatItem, { kind: 'assistant' }>;
  orgId: string;
  /** The turn still streams. */
  live: boolean;
}

/** One step's answer of the agent: its thinking, folded, and its text as Markdown. */
export function AssistantMessage({ item, orgId, live }: AssistantMessageProps) {
  return (
    <div className="max-w-[90%] space-y-1">
      {item.thinking !== '' && (
        <ThinkingBlock thinking={item.thinking} start={item.thinkingStart} end={item.thinkingEnd} live={live} />
      )}
      {item.text !== '' && (
        <div className="rounded-lg rounded-tl-sm bg-white px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-slate-200">
          <ChatMarkdown text={item.text} orgId={orgId} />
        </div>
      )}
    </div>
  );
}
