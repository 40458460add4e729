import { sql } from 'drizzle-orm';
import {
  DatabaseBlobStore,
  type Db,
  type ExtractFn,
  ModelRegistry,
  selectRows,
  type TextExtractionScheduler,
  type TextJobServices,
  uploadDocuments,
} from '../src/index.ts';

/** A text job's reader that takes a file's bytes as its one page of text, for tests of what comes after. */
export const plainTextExtract: ExtractFn = async ({ bytes }) => {
  const text = new TextDecoder().decode(bytes);
  return { pageCount: 1, pages: [{ page: 1, text, width: 1, height: 1, engine: 'plain', items: [] }] };
};

/** The text job's services on a test database, reading each file as plain text. */
export const plainTextServices = (db: Db): TextJobServices => ({
  db,
  blobs: new DatabaseBlobStore(db),
  extract: plainTextExtract,
});

/** A registry with no provider configured: a document's prompts find no model. */
export const noModels = (db: Db, timeoutMs = 1000) => new ModelRegistry(db, { env: {}, maxRetries: 0, timeoutMs });

async function* once(text: string) {
  yield Buffer.from(text);
}

/** Stores text files as an organization's admin and hands their text jobs to `scheduler`, as an upload does. */
export function uploadTexts(
  db: Db,
  scheduler: TextExtractionScheduler,
  orgId: string,
  files: Array<{ name: string; text: string; autoCreate?: boolean }>,
) {
  return uploadDocuments(
    { db, blobs: new DatabaseBlobStore(db), scheduler },
    { orgId, role: 'admin', userId: null },
    files.map(({ name, text, autoCreate }) => ({ name, content: once(text), ...(autoCreate ? { autoCreate } : {}) })),
    { maxFileBytes: 1e6, maxRequestBytes: 2e6, maxFiles: files.length },
  );
}

/** Jobs of a queue (in a state) in pg-boss's own table. */
export async function jobCount(db: Db, queueName: string, state?: string): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from pgboss.job where name = ${queueName} and (${state ?? null}::text is null or state::text = ${state ?? null})`,
  );
  return row?.n ?? 0;
}

/** Waits for `check` to hold, failing after a minute with what was awaited. */
export async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
