import { type BlobStore, DatabaseBlobStore, type Db, ModelRegistry } from '@docagent/core';
import type { ToolServices } from '../src/tools/tool.ts';

/**
 * The services a test engine's tools get: the test's database, text extraction that is never
 * scheduled, and a model registry with no provider, so nothing leaves the process.
 */
export function offlineServices(db: Db, more: Partial<ToolServices> & { blobs?: BlobStore } = {}): ToolServices {
  const { blobs = new DatabaseBlobStore(db), ...rest } = more;
  return {
    db,
    documents: { db, blobs, scheduler: { scheduleTextExtraction: async () => {} } },
    extraction: { db, llm: new ModelRegistry(db, { env: {}, maxRetries: 0, timeoutMs: 1000 }) },
    ...rest,
  };
}
