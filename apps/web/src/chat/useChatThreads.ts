import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type ChatSubject,
  fetchThread,
  type ThreadSummary,
  threadQueryKey,
  useCreateThreadMutation,
  useDeleteThreadMutation,
  useRenameThreadMutation,
  useThreadsQuery,
} from '../api/chat';
import type { WorkingExtraction } from '../api/chatStream';
import type { ChatItem } from './chatItems';
import { extractionOfWorkingState } from './extraction';
import { itemsOfHistory, withMessageIndexes } from './historyItems';
import { noticesOf, type PlacedNotice, withNotices } from './threadNotices';

/** What of the conversation on screen switching threads replaces. */
interface ShownConversation {
  items: ChatItem[];
  setItems: (change: (current: ChatItem[]) => ChatItem[]) => void;
  reset: (items: ChatItem[], extraction?: WorkingExtraction | null) => void;
}

/**
 * Notices the stored threads do not keep ("Stopped."), by thread, for as long as the app runs:
 * kept across documents, so that coming back to a conversation shows how its turns ended.
 */
const noticesByThread = new Map<string, PlacedNotice<ChatItem>[]>();

/**
 * The person's conversations about the subject and the one shown: opening one (its stored
 * messages, its extraction and the notices it showed), creating, renaming and deleting them.
 */
export function useChatThreads(orgId: string, subject: ChatSubject, shown: ShownConversation, onSwitch: () => void) {
  const queryClient = useQueryClient();
  const threadsQuery = useThreadsQuery(orgId, subject);
  const createThread = useCreateThreadMutation(orgId, subject);
  const deleteThread = useDeleteThreadMutation(orgId, subject);
  const renameThread = useRenameThreadMutation(orgId, subject);
  const [threadId, setThreadId] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<unknown>(null);

  function load(id: string) {
    return queryClient.fetchQuery({
      queryKey: threadQueryKey(orgId, subject, id),
      queryFn: () => fetchThread(orgId, subject, id),
      staleTime: 0,
    });
  }

  async function pick(next: string | null) {
    if (threadId !== null) noticesByThread.set(threadId, noticesOf(shown.items));
    setThreadId(next);
    setLoadError(null);
    onSwitch();
    if (next === null) {
      shown.reset([]);
      return;
    }
    setLoading(true);
    try {
      const thread = await load(next);
      const items = withNotices(itemsOfHistory(thread.messages), noticesByThread.get(next) ?? []);
      shown.reset(items, extractionOfWorkingState(thread.working_state));
    } catch (error) {
      shown.reset([]);
      setLoadError(error);
    } finally {
      setLoading(false);
    }
  }

  function remove(thread: ThreadSummary) {
    if (!window.confirm(`Delete the conversation “${thread.title}”?`)) return;
    deleteThread.mutate(thread.id, {
      onSuccess: () => {
        noticesByThread.delete(thread.id);
        if (threadId === thread.id) {
          setThreadId(null);
          shown.reset([]);
        }
      },
    });
  }

  async function rename(thread: ThreadSummary, title: string) {
    await renameThread.mutateAsync({ threadId: thread.id, title });
  }

  /** The thread of the next message: the one shown, or a new one named after the message. */
  async function threadFor(title: string): Promise<string> {
    if (threadId !== null) return threadId;
    const created = await createThread.mutateAsync(title);
    setThreadId(created);
    return created;
  }

  /** After a turn, the messages on screen learn where they are in the stored thread (for edits). */
  async function indexMessages(thread: string) {
    try {
      const stored = await load(thread);
      shown.setItems((current) => withMessageIndexes(current, stored.messages));
    } catch {
      // Without the indexes, the messages of this turn cannot be edited; nothing else is lost.
    }
  }

  return {
    threadId,
    threads: threadsQuery.data ?? [],
    threadsQuery,
    loading,
    loadError,
    creating: createThread.isPending,
    deleteThread,
    pick,
    remove,
    rename,
    threadFor,
    load,
    indexMessages,
  };
}
