import { conflict, findExtractionResult, getAutoCreateLog, getDocument, type OrgAccess } from '@docagent/core';
import type { ModelMessage } from 'ai';
import type { DocumentWorkingState } from '../packs/document/working-state.ts';
import type { ThreadStore } from '../threads/thread-store.ts';

/**
 * Refine in chat (seed 000 section 4.3): a new thread of the person's that continues the headless
 * run, its working state the proposal (schema, prompt and extraction), so that "add a
 * payment_terms field" goes on from there under the usual approvals.
 */
export async function refineAutoCreate(threads: ThreadStore, access: OrgAccess, documentId: string): Promise<string> {
  const { db } = threads;
  const document = await getDocument(db, access.orgId, documentId);
  const { autoCreateStatus: status, autoCreatePromptRevid: promptRevid, autoCreateSchemaRevid: schemaRevid } = document;
  if (status !== 'proposed' || !promptRevid) {
    throw conflict(
      `Document ${documentId} has no auto-create proposal to refine (its auto-create is ${status ?? 'not requested'}); ` +
        'start a normal conversation instead.',
    );
  }
  const { log } = await getAutoCreateLog(db, access.orgId, documentId);
  const result = await findExtractionResult(db, access.orgId, documentId, promptRevid);
  const workingState: DocumentWorkingState = {
    prompt_revid: promptRevid,
    ...(schemaRevid ? { schema_revid: schemaRevid } : {}),
    ...(result ? { extraction: result.updatedLlmResult } : {}),
  };
  // The headless conversation comes along, so the agent knows what it did and why.
  const thread = await threads.createFor(
    access,
    { kind: 'document', id: documentId },
    {
      title: 'Refine the auto-create proposal',
      start: { messages: (log?.messages ?? []) as ModelMessage[], workingState: { ...workingState } },
    },
  );
  return thread.id;
}
