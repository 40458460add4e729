import { type Db, type DocumentProgress, getDocument } from '../src/index.ts';

/**
 * The document's progress once it shows `done`. A stage writes what it reports a moment later
 * (document-progress.ts), so a test waits for the value instead of reading it at once.
 */
export async function progressShown(db: Db, orgId: string, documentId: string, done: number): Promise<DocumentProgress> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { progress } = await getDocument(db, orgId, documentId);
    if (progress?.done === done) return progress;
    if (Date.now() > deadline) throw new Error(`document ${documentId} shows ${JSON.stringify(progress)}, not ${done} done`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
