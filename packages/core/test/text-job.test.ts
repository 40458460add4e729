import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import {
  createOrganization,
  type Database,
  DatabaseBlobStore,
  type ExtractFn,
  extractDocumentText,
  getDocument,
  getDocumentPages,
  getTextMetadata,
  JobQueue,
  ModelRegistry,
  pdftotextAvailable,
  runTextExtraction,
  selectRows,
  TEXT_EXTRACTION_QUEUE,
  TextExtractionError,
  type TextExtractionScheduler,
  uploadDocuments,
} from '../src/index.ts';
import { NUL_PDF_TEXT, nulTextLayerPdf } from '../src/testing/sample-corpus.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';
import { progressShown } from './progress-shown.ts';

/** A value that must never leave the statement that failed: not in the reason, not in the job record. */
const popplerInstalled = await pdftotextAvailable();
const SECRET = 'page-text-secret-7f3a9c';

let database: Database;
let orgId: string;
let blobs: DatabaseBlobStore;

async function* once(bytes: Uint8Array) {
  yield bytes;
}

async function upload(
  name: string,
  bytes: Uint8Array,
  scheduler: TextExtractionScheduler = { scheduleTextExtraction: async () => {} },
) {
  const [doc] = await uploadDocuments(
    { db: database.db, blobs, scheduler },
    { orgId, role: 'admin', userId: null },
    [{ name, content: once(bytes) }],
    { maxFileBytes: 1e6, maxRequestBytes: 2e6, maxFiles: 1 },
  );
  if (!doc) throw new Error('no document stored');
  return doc;
}

/** Two pages numbered 1: the page rows' primary key refuses the second, so storing the text fails. */
const unstorable: ExtractFn = async () => ({
  pageCount: 2,
  pages: [1, 1].map((page) => ({ page, text: `${SECRET} ${page}`, width: 1, height: 1, engine: 'plain' as const, items: [] })),
});

before(async () => {
  database = await openTestDatabase();
  orgId = (await createOrganization(database.db, { name: 'Text job' })).id;
  blobs = new DatabaseBlobStore(database.db);
});
after(async () => {
  await database.close();
});

describe('text the database cannot hold', () => {
  test('a PDF whose text layer holds a NUL is stored without it, and the metadata counts what was removed', async () => {
    const doc = await upload('nul.pdf', new Uint8Array(nulTextLayerPdf()));
    // pdf.js hands the NUL on (pdftotext drops it itself: see the next test).
    const extract: ExtractFn = (input, options) => extractDocumentText(input, { ...options, pdfEngine: 'pdfjs' });
    assert.equal(await runTextExtraction({ db: database.db, blobs, extract }, doc.id, { isLast: false }), true);

    assert.equal((await getDocument(database.db, orgId, doc.id)).state, 'ocr_completed');
    const { pages } = await getDocumentPages(database.db, orgId, doc.id);
    assert.equal(pages[0]?.engine, 'pdf_text', 'read from the text layer, not by OCR');
    assert.equal(pages[0]?.text, NUL_PDF_TEXT);
    assert.deepEqual(
      pages[0]?.items.map((item) => item.text),
      [NUL_PDF_TEXT],
    );
    assert.equal((await getTextMetadata(database.db, orgId, doc.id)).removedCharacters, 1);
  });

  test('the same PDF through pdftotext: poppler maps the NUL to no character, so nothing is left to remove', {
    skip: popplerInstalled ? false : 'pdftotext is not on PATH: apt-get install -y poppler-utils (.ci/run does it)',
  }, async () => {
    const doc = await upload('nul.pdf', new Uint8Array(nulTextLayerPdf()));
    const extract: ExtractFn = (input, options) => extractDocumentText(input, { ...options, pdfEngine: 'pdftotext' });
    assert.equal(await runTextExtraction({ db: database.db, blobs, extract }, doc.id, { isLast: false }), true);
    const { pages } = await getDocumentPages(database.db, orgId, doc.id);
    assert.equal(pages[0]?.text, NUL_PDF_TEXT);
    assert.deepEqual(
      pages[0]?.items.map((item) => item.text),
      NUL_PDF_TEXT.split(' '),
    );
    assert.equal((await getTextMetadata(database.db, orgId, doc.id)).removedCharacters, 0);
  });

  test('unpaired surrogates are removed too; surrogate pairs and text without either are kept whole', async () => {
    const doc = await upload('surrogates.txt', Buffer.from('placeholder'));
    const extract: ExtractFn = async () => ({
      pageCount: 2,
      pages: [
        {
          page: 1,
          text: 'a\uD800b\uDC00c \u{1F600}\u0000',
          width: 1,
          height: 1,
          engine: 'tesseract_cli',
          items: [
            { text: 'a\uD800b\uDC00c', x: 0, y: 0, width: 1, height: 1 },
            { text: '\u0000', x: 0, y: 0, width: 1, height: 1 },
          ],
        },
        { page: 2, text: 'plain', width: 1, height: 1, engine: 'plain', items: [] },
      ],
    });
    assert.equal(await runTextExtraction({ db: database.db, blobs, extract }, doc.id, { isLast: false }), true);
    const { pages } = await getDocumentPages(database.db, orgId, doc.id);
    assert.deepEqual(
      pages.map((p) => [p.text, p.items.map((item) => item.text)]),
      [
        ['abc \u{1F600}', ['abc']],
        // A plain page's items are not stored: they are its lines, made from its stored text.
        ['plain', ['plain']],
      ],
    );
    assert.equal((await getTextMetadata(database.db, orgId, doc.id)).removedCharacters, 3);
  });
});

describe('a text file', () => {
  test('its lines are its positioned items, made from its text when read rather than stored beside it', async () => {
    const csv = 'name,amount\r\nAcme,12.50\r\n\r\n  Globex , 7\r\n';
    const doc = await upload('amounts.csv', Buffer.from(csv));
    assert.equal(
      await runTextExtraction({ db: database.db, blobs, extract: extractDocumentText }, doc.id, { isLast: false }),
      true,
    );
    const [stored] = await selectRows<{ items: number; text: string }>(
      database.db,
      sql`select jsonb_array_length(items) as items, text from document_pages where document_id = ${doc.id}`,
    );
    assert.deepEqual(stored, { items: 0, text: 'name,amount\nAcme,12.50\n\n  Globex , 7\n' });
    const { pages } = await getDocumentPages(database.db, orgId, doc.id);
    assert.deepEqual(pages[0]?.items, [
      { text: 'name,amount', x: 0, y: 0, width: 11, height: 1 },
      { text: 'Acme,12.50', x: 0, y: 1, width: 10, height: 1 },
      { text: '  Globex , 7', x: 0, y: 3, width: 12, height: 1 },
    ]);
  });
});

describe('a failure to store the text', () => {
  test('is retried while attempts remain, and on the last one ends ocr_failed with the reason, without the values', async () => {
    const doc = await upload('unstorable.txt', Buffer.from('placeholder'));
    const services = { db: database.db, blobs, extract: unstorable };

    await assert.rejects(runTextExtraction(services, doc.id, { isLast: false }), /could not be stored/);
    assert.equal((await getDocument(database.db, orgId, doc.id)).state, 'ocr_processing', 'left for the retry');

    await assert.rejects(runTextExtraction(services, doc.id, { isLast: true }), /could not be stored/);
    const failed = await getDocument(database.db, orgId, doc.id);
    assert.equal(failed.state, 'ocr_failed');
    assert.match(
      failed.stateError ?? '',
      /^the extracted text could not be stored \(duplicate key value violates unique constraint/,
    );
    assert.doesNotMatch(failed.stateError ?? '', new RegExp(SECRET));
  });

  test('through the job queue, ends ocr_failed and the job is settled as failed, its record without the values', async () => {
    const queue = await JobQueue.start(
      database,
      {
        text: { db: database.db, blobs, extract: unstorable },
        extraction: { db: database.db, llm: new ModelRegistry(database.db, { env: {}, maxRetries: 0, timeoutMs: 1000 }) },
      },
      { workers: 1, retryLimit: 0, pollingIntervalSeconds: 0.5 },
    );
    try {
      const doc = await upload('queued.txt', Buffer.from('placeholder'), queue);
      const [job] = await until('the text job to fail', async () => {
        const rows = await selectRows<{ state: string; output: unknown }>(
          database.db,
          sql`select state::text as state, output from pgboss.job where name = ${TEXT_EXTRACTION_QUEUE} and data->>'documentId' = ${doc.id}`,
        );
        return rows[0]?.state === 'failed' ? rows : undefined;
      });
      assert.match(JSON.stringify(job?.output), /could not be stored/);
      assert.doesNotMatch(JSON.stringify(job?.output), new RegExp(SECRET));
      const failed = await getDocument(database.db, orgId, doc.id);
      assert.equal(failed.state, 'ocr_failed');
      assert.match(failed.stateError ?? '', /could not be stored/);
    } finally {
      await queue.stop();
    }
  });
});

describe('progress while the text is extracted', () => {
  const pages = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      page: i + 1,
      text: `page ${i + 1}`,
      width: 1,
      height: 1,
      engine: 'plain' as const,
      items: [],
    }));

  test('the document shows its pages done one by one of the total, and no progress once the text is stored', async () => {
    const doc = await upload('pages.txt', Buffer.from('placeholder'));
    const shown: unknown[] = [];
    const extract: ExtractFn = async (_input, { onPage }) => {
      for (let done = 0; done <= 3; done++) {
        onPage?.(done, 3);
        shown.push(await progressShown(database.db, orgId, doc.id, done));
      }
      return { pageCount: 3, pages: pages(3) };
    };
    assert.equal(await runTextExtraction({ db: database.db, blobs, extract }, doc.id, { isLast: false }), true);
    assert.deepEqual(
      shown,
      [0, 1, 2, 3].map((done) => ({ stage: 'text', done, total: 3 })),
    );
    const stored = await getDocument(database.db, orgId, doc.id);
    assert.deepEqual([stored.state, stored.progress], ['ocr_completed', null]);
  });

  test('a failure clears the progress: permanent, passing (left for the retry) or on the last attempt', async () => {
    const failures = [
      { error: new TextExtractionError('malformed', 'The PDF cannot be read.'), isLast: false, state: 'ocr_failed' },
      { error: new Error('the OCR engine crashed'), isLast: false, state: 'ocr_processing' },
      { error: new Error('the OCR engine crashed'), isLast: true, state: 'ocr_failed' },
    ];
    for (const { error, isLast, state } of failures) {
      const doc = await upload('failing.txt', Buffer.from('placeholder'));
      const extract: ExtractFn = async (_input, { onPage }) => {
        onPage?.(2, 5);
        await progressShown(database.db, orgId, doc.id, 2);
        throw error;
      };
      // Passing failures are rethrown for the queue to retry.
      await runTextExtraction({ db: database.db, blobs, extract }, doc.id, { isLast }).catch((thrown) =>
        assert.equal(thrown, error),
      );
      const failed = await getDocument(database.db, orgId, doc.id);
      assert.deepEqual([failed.state, failed.progress], [state, null], error.message);
    }
  });

  test('reports still waiting to be written when the text is stored leave no progress behind', async () => {
    const doc = await upload('quick.txt', Buffer.from('placeholder'));
    const extract: ExtractFn = async (_input, { onPage }) => {
      onPage?.(0, 1);
      onPage?.(1, 1);
      return { pageCount: 1, pages: pages(1) };
    };
    assert.equal(await runTextExtraction({ db: database.db, blobs, extract }, doc.id, { isLast: false }), true);
    assert.equal((await getDocument(database.db, orgId, doc.id)).progress, null);
  });
});

async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`still waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
