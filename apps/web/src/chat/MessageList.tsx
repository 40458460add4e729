import { useRef } from 'react';
import type { InputProblem } from '../api/client';
import { AssistantMessage } from './AssistantMessage';
import type { ChatItem, ToolItem } from './chatItems';
import { StepGroup } from './StepGroup';
import { segmentsOf } from './stepGroups';
import { type Decision, ToolCallCard } from './ToolCallCard';
import { TurnError } from './TurnError';
import { UserMessage } from './UserMessage';
import { useFollowScroll } from './useFollowScroll';

type UserItem = Extract<ChatItem, { kind: 'user' }>;

interface MessageListProps {
  orgId: string;
  items: ChatItem[];
  /** The log's accessible name; "Conversation" unless it shows something else, such as a replayed run. */
  label?: string;
  /** What an empty list says. */
  emptyText?: string;
  /** The person's answers to the pending calls, by call id. Without onDecide the list is read-only: no approvals. */
  decisions?: Record<string, Decision>;
  onDecide?: (callId: string, decision: Decision) => void;
  /** Lets the pinned approval approve a pending call as its card would (with the arguments edited there). */
  onRegisterApprove?: (callId: string, approve: () => void) => () => void;
  /** Checks edited arguments for a tool before they are sent. */
  onValidate?: (tool: string, args: Record<string, unknown>) => Promise<InputProblem[]>;
  /** An approval is being sent. */
  busy: boolean;
  /** A turn is streaming: the last assistant message may still grow. */
  streaming: boolean;
  /** Edits a stored message and sends it again; absent while a turn runs. */
  onResubmit?: (item: UserItem, text: string) => void;
  /** Sends the last message again after the turn failed. */
  onRetry?: () => void;
  /** The calls whose cards offer Undo (the last write of each ended turn), and how to undo one. */
  undoTargets?: ReadonlySet<string>;
  onUndo?: (item: ToolItem) => Promise<void>;
}

/** The conversation: the person's messages, the agent's answers as they stream, its tool calls and its errors. */
export function MessageList({
  orgId,
  items,
  label = 'Conversation',
  emptyText = 'Ask the agent about this document, or ask it to create a schema, a prompt or tags for it.',
  decisions = {},
  onDecide,
  onRegisterApprove,
  onValidate,
  busy,
  streaming,
  onResubmit,
  onRetry,
  undoTargets,
  onUndo,
}: MessageListProps) {
  const list = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const lastError = items.findLastIndex((item) => item.kind === 'error');
  // Another conversation (another first message) opens at its latest message.
  const { behind, onScroll, jumpToLatest } = useFollowScroll(list, content, items[0]?.key);

  function renderItem(item: ChatItem, index: number) {
    switch (item.kind) {
      case 'user':
        return (
          <UserMessage
            key={item.key}
            item={item}
            onResubmit={onResubmit && item.messageIndex !== undefined ? (text) => onResubmit(item, text) : undefined}
          />
        );
      case 'assistant':
        return <AssistantMessage key={item.key} item={item} orgId={orgId} live={streaming && index === items.length - 1} />;
      case 'tool':
        return (
          <ToolCallCard
            orgId={orgId}
            key={item.key}
            item={item}
            decision={decisions[item.callId]}
            onDecide={onDecide && ((decision) => onDecide(item.callId, decision))}
            onRegisterApprove={onRegisterApprove}
            validate={onValidate && ((args) => onValidate(item.name, args))}
            busy={busy}
            onUndo={onUndo && undoTargets?.has(item.callId) ? () => onUndo(item) : undefined}
          />
        );
      case 'error':
        return <TurnError key={item.key} text={item.text} onRetry={index === lastError && !streaming ? onRetry : undefined} />;
      case 'notice':
        return (
          <p key={item.key} className="text-center text-xs text-slate-500">
            {item.text}
          </p>
        );
      default:
        // Steps and their phases are drawn by their step's group.
        return null;
    }
  }

  return (
    // "Jump to the latest" floats over the list from outside it: inside, it took room in the list's
    // flow, so showing or hiding it changed how far the list scrolls, and moved what was in view
    // (a click on a button that had just been scrolled to landed beside it).
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={list}
        role="log"
        aria-label={label}
        onScroll={onScroll}
        // Relative: the hidden labels (sr-only, absolutely placed) of what is scrolled away stay inside,
        // not below the page. The bottom scroll padding: what is scrolled into view (a focused or
        // clicked button) stops above "Jump to the latest", not under it.
        className="relative min-h-0 flex-1 scroll-pb-10 overflow-y-auto overscroll-contain rounded-md bg-slate-50"
      >
        <div ref={content} className="space-y-3 p-3">
          {items.length === 0 && <p className="py-8 text-center text-sm text-slate-500">{emptyText}</p>}
          {segmentsOf(items).map((segment, at, segments) =>
            segment.kind === 'item' ? (
              renderItem(segment.item, segment.index)
            ) : (
              <StepGroup
                key={segment.key}
                step={segment.step}
                items={segment.items}
                orgId={orgId}
                live={streaming && at === segments.length - 1}
                renderItem={renderItem}
              />
            ),
          )}
        </div>
      </div>
      {behind && (
        <div className="pointer-events-none absolute inset-x-0 bottom-2 flex justify-center">
          <button
            type="button"
            onClick={jumpToLatest}
            className="pointer-events-auto rounded-full border border-slate-300 bg-white px-3 py-1 text-xs font-medium text-slate-700 shadow-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-slate-500"
          >
            Jump to the latest ↓
          </button>
        </div>
      )}
    </div>
  );
}
