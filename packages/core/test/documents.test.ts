import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import {
  createOrganization,
  createTag,
  type Database,
  DatabaseBlobStore,
  type DocumentRecord,
  deleteDocument,
  type ExtractFn,
  getDocument,
  getDocumentExcerpt,
  getDocumentPages,
  getDocumentPageTexts,
  getDocumentText,
  JobQueue,
  listDocuments,
  ModelRegistry,
  selectRows,
  TextExtractionError,
  updateDocument,
  uploadDocuments,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

let database: Database;
let queue: JobQueue;
let orgId: string;
const blobs = () => new DatabaseBlobStore(database.db);

// A stand-in for the real pipeline (tested on its own): plain text, a page per form feed, with
// instructions in the text to fail the way a real extraction can.
const failures = new Map<string, number>();
const extract: ExtractFn = async ({ bytes }) => {
  const text = new TextDecoder().decode(bytes);
  if (text.startsWith('PERMANENT')) throw new TextExtractionError('malformed', 'The file is malformed; upload a valid copy.');
  if (text.startsWith('FLAKY')) {
    const seen = failures.get(text) ?? 0;
    failures.set(text, seen + 1);
    if (text.startsWith('FLAKY-ALWAYS') || seen === 0) throw new Error('the OCR engine crashed');
  }
  const pages = text
    .split('\f')
    .map((page, i) => ({ page: i + 1, text: page, width: 1, height: 1, engine: 'plain' as const, items: [] }));
  return { pageCount: pages.length, pages };
};

async function* chunks(text: string) {
  yield Buffer.from(text);
}

const limits = { maxFileBytes: 1024 * 1024, maxRequestBytes: 2 * 1024 * 1024, maxFiles: 5 };
const services = () => ({ db: database.db, blobs: blobs(), scheduler: queue });
const access = () => ({ orgId, role: 'admin' as const, userId: null });

async function upload(name: string, text: string, extra: { tagIds?: string[]; metadata?: Record<string, string> } = {}) {
  const [doc] = await uploadDocuments(services(), access(), [{ name, content: chunks(text), ...extra }], limits);
  if (!doc) throw new Error('the upload stored no document');
  return doc;
}

async function settled(id: string): Promise<DocumentRecord> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const doc = await getDocument(database.db, orgId, id);
    if (doc.state === 'ocr_completed' || doc.state === 'ocr_failed') return doc;
    if (Date.now() > deadline) throw new Error(`document ${id} still ${doc.state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  database = await openTestDatabase();
  orgId = (await createOrganization(database.db, { name: 'Docs' })).id;
  queue = await JobQueue.start(
    database,
    {
      text: { db: database.db, blobs: blobs(), extract },
      // No provider configured: documents stop at ocr_completed.
      extraction: { db: database.db, llm: new ModelRegistry(database.db, { env: {}, maxRetries: 0, timeoutMs: 1000 }) },
    },
    { workers: 1, retryLimit: 2, retryDelaySeconds: 1, pollingIntervalSeconds: 0.5 },
  );
});
after(async () => {
  await queue.stop();
  await database.close();
});

describe('upload and text pipeline', () => {
  test('a text upload is stored, queued, extracted, and its pages read back', async () => {
    const doc = await upload('notes.txt', 'hello from the pipeline');
    assert.equal(doc.state, 'uploaded');
    assert.equal(doc.kind, 'text');
    const done = await settled(doc.id);
    assert.equal(done.state, 'ocr_completed');
    assert.equal(done.pageCount, 1);
    const { pages } = await getDocumentPages(database.db, orgId, doc.id, 1);
    assert.equal(pages[0]?.text, 'hello from the pipeline');
    // What the agent reads at every step: the same text, without the positioned words.
    const texts = await getDocumentPageTexts(database.db, orgId, doc.id);
    assert.deepEqual(texts.pages, [{ page: 1, text: 'hello from the pipeline' }]);
    assert.equal(texts.document.id, doc.id);
    assert.equal(await getDocumentText(database.db, orgId, doc.id), 'hello from the pipeline');
    await assert.rejects(getDocumentPageTexts(database.db, orgId, doc.id, 2), /page_num 2 is out of range/);
  });

  test("the start of a document's text comes with its length and the document, in one read", async () => {
    const pages = ['First page: Grüße', 'Second page', 'x'.repeat(5000)];
    const doc = await settled((await upload('pages.txt', pages.join('\f'))).id);
    const whole = await getDocumentText(database.db, orgId, doc.id);
    assert.equal(whole, pages.join('\n\n'));
    const start = await getDocumentExcerpt(database.db, orgId, doc.id, 100);
    assert.equal(start.document.id, doc.id);
    assert.equal(start.excerpt, whole.slice(0, 100));
    assert.equal(start.length, whole.length);
    assert.equal(start.unavailable, undefined);
    assert.equal((await getDocumentExcerpt(database.db, orgId, doc.id, 100_000)).excerpt, whole);

    const failed = await settled((await upload('unreadable.txt', 'PERMANENT')).id);
    const none = await getDocumentExcerpt(database.db, orgId, failed.id, 100);
    assert.match(none.unavailable ?? '', /Text extraction failed for document .*: The file is malformed/);
    assert.deepEqual([none.excerpt, none.length, none.document.id], ['', 0, failed.id]);
    await assert.rejects(getDocumentExcerpt(database.db, 'another-org', doc.id, 100), /was not found/);
  });

  test('a permanent failure ends in ocr_failed at once with the reason', async () => {
    const done = await settled((await upload('bad.txt', 'PERMANENT')).id);
    assert.equal(done.state, 'ocr_failed');
    assert.match(done.stateError ?? '', /malformed/);
  });

  test('a transient failure is retried; one that keeps failing ends in ocr_failed with its error', async () => {
    const flaky = await settled((await upload('flaky.txt', 'FLAKY-ONCE')).id);
    assert.equal(flaky.state, 'ocr_completed');
    assert.equal(failures.get('FLAKY-ONCE'), 2);
    const broken = await settled((await upload('broken.txt', 'FLAKY-ALWAYS')).id);
    assert.equal(broken.state, 'ocr_failed');
    assert.match(broken.stateError ?? '', /OCR engine crashed/);
    assert.equal(failures.get('FLAKY-ALWAYS'), 3, 'first attempt plus two retries');
  });
});

describe('refused uploads keep nothing', () => {
  const blobCount = async () => (await selectRows<{ n: number }>(database.db, sql`select count(*)::int as n from blobs`))[0]?.n;

  test('bytes that do not match the name, empty files and bad names are refused', async () => {
    const before = await blobCount();
    await assert.rejects(upload('invoice.pdf', 'just some text'), /named like a PDF but its content is plain text/);
    await assert.rejects(upload('empty.txt', ''), /is empty/);
    await assert.rejects(upload('../etc/passwd.txt', 'x'), /path separator or a control character/);
    await assert.rejects(upload('bell\u0007.txt', 'x'), /control character/);
    await assert.rejects(upload('a.txt', 'x', { metadata: { '': 'v' } }), /metadata key/);
    assert.equal(await blobCount(), before);
  });

  test('a file over the size limit is refused and its partial chunks removed', async () => {
    const before = await blobCount();
    await assert.rejects(
      upload('big.txt', 'x'.repeat(1024 * 1024 + 1)),
      (error: Error & { kind?: string }) =>
        error.kind === 'too_large' && /"big.txt" is larger than the limit of 1 MB per file/.test(error.message),
    );
    assert.equal(await blobCount(), before);
  });

  test('an upload is all or nothing: a refused file leaves none of its request stored', async () => {
    const before = await listDocuments(database.db, orgId, { skip: 0, limit: 1 });
    const blobsBefore = await blobCount();
    await assert.rejects(
      uploadDocuments(
        services(),
        access(),
        [
          { name: 'first.txt', content: chunks('fine') },
          { name: 'second.pdf', content: chunks('not a pdf') },
        ],
        limits,
      ),
      /second.pdf/,
    );
    await assert.rejects(
      uploadDocuments(
        services(),
        access(),
        ['a', 'b', 'c'].map((letter) => ({ name: `${letter}.txt`, content: chunks(letter.repeat(900 * 1024)) })),
        limits,
      ),
      /limit of 2 MB per request/,
    );
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `n${i}.txt`, content: chunks('x') }));
    await assert.rejects(uploadDocuments(services(), access(), six, limits), /at most 5 files/);
    const after = await listDocuments(database.db, orgId, { skip: 0, limit: 1 });
    assert.equal(after.total, before.total);
    assert.equal(await blobCount(), blobsBefore);
  });
});

describe('listing, updating, deleting', () => {
  test('name search, tag filter, metadata search and pagination', async () => {
    const [t1, t2] = [
      (await createTag(database.db, orgId, { name: 't1' })).id,
      (await createTag(database.db, orgId, { name: 't2' })).id,
    ];
    const a = await upload('alpha report.md', '# Alpha', { tagIds: [t1, t2], metadata: { source: 'email' } });
    await upload('beta.csv', 'a,b\n1,2\n', { tagIds: [t2] });
    await upload('50%_off.txt', 'sale');
    const byName = await listDocuments(database.db, orgId, { skip: 0, limit: 10, nameSearch: 'ALPHA' });
    assert.deepEqual(
      byName.documents.map((d) => d.id),
      [a.id],
    );
    assert.equal(byName.documents[0]?.kind, 'markdown');
    const byTags = await listDocuments(database.db, orgId, { skip: 0, limit: 10, tagIds: [t1, t2] });
    assert.deepEqual(
      byTags.documents.map((d) => d.id),
      [a.id],
    );
    const byMeta = await listDocuments(database.db, orgId, { skip: 0, limit: 10, metadataSearch: { source: 'email' } });
    assert.deepEqual(
      byMeta.documents.map((d) => d.id),
      [a.id],
    );
    const percent = await listDocuments(database.db, orgId, { skip: 0, limit: 10, nameSearch: '%' });
    assert.deepEqual(
      percent.documents.map((d) => d.name),
      ['50%_off.txt'],
      'LIKE wildcards in a search are literal',
    );
    const page = await listDocuments(database.db, orgId, { skip: 1, limit: 2 });
    assert.equal(page.documents.length, 2);
    assert.ok(page.total >= 3);
  });

  test('update changes name, tags and metadata; delete removes the document, its text and its file', async () => {
    const doc = await settled((await upload('old.txt', 'to be renamed')).id);
    const x = (await createTag(database.db, orgId, { name: 'x' })).id;
    const updated = await updateDocument(database.db, orgId, doc.id, { name: 'new.txt', tagIds: [x], metadata: { k: 'v' } });
    assert.deepEqual([updated.name, updated.tagIds, updated.metadata], ['new.txt', [x], { k: 'v' }]);
    await deleteDocument({ db: database.db, blobs: blobs() }, orgId, doc.id);
    await assert.rejects(getDocument(database.db, orgId, doc.id), /was not found/);
    const left = await selectRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from blob_chunks where blob_id = ${doc.blobId}`,
    );
    assert.equal(left[0]?.n, 0);
  });

  test('another organization cannot see the document', async () => {
    const doc = await upload('private.txt', 'secret');
    const other = await createOrganization(database.db, { name: 'Other' });
    await assert.rejects(getDocument(database.db, other.id, doc.id), /was not found/);
  });
});
