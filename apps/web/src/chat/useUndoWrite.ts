import { useCallback } from 'react';
import { undoLastWrite, useRefreshAfterTurn } from '../api/chat';
import type { WorkingExtraction } from '../api/chatStream';
import { getJson } from '../api/client';
import { orgApiPath } from '../api/queries';
import type { ToolItem } from './chatItems';

type MarkUndone = (callId: string, message: string, restored?: WorkingExtraction) => void;

/**
 * Undoes the write of a card (its turn's last one): asks the server, marks the card undone, and
 * refetches what the agent's writes show (schemas, prompts, notes, results), since the undo wrote a
 * new version of one. A refusal rejects, with the server's words.
 */
export function useUndoWrite(orgId: string, markUndone: MarkUndone): (item: ToolItem) => Promise<void> {
  const refresh = useRefreshAfterTurn(orgId);
  return useCallback(
    async (item: ToolItem) => {
      if (item.turnId === undefined) throw new Error('This call’s turn is not known here; it cannot be undone from this page.');
      const undone = await undoLastWrite(orgId, item.turnId);
      const { document_id: documentId, prompt_revid: promptRevid } = undone.ids;
      let restored: WorkingExtraction | undefined;
      if (undone.artifact === 'extraction_result' && documentId && promptRevid) {
        const path = `${orgApiPath(orgId)}/llm/result/${encodeURIComponent(documentId)}?${new URLSearchParams({ prompt_revid: promptRevid })}`;
        const result = await getJson<{ updated_llm_result: unknown }>(path).catch(() => null);
        if (result) restored = { promptRevid, values: result.updated_llm_result };
      }
      markUndone(item.callId, undone.message, restored);
      void refresh();
    },
    [orgId, markUndone, refresh],
  );
}
