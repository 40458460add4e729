import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTag, DatabaseBlobStore, type ExtractFn, runTextExtraction, uploadDocuments } from '@docagent/core';
import { type BadInput, buildBadInputs, buildSampleCorpus, type Sample } from '@docagent/core/sample-corpus';
import { bearer, json, multipartBody, seedMember, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
let samples: Sample[];
let badInputs: BadInput[];
/** Tag ids by name: documents may carry only tags their organization has. */
const tag: Record<string, string> = {};
const dir = mkdtempSync(join(tmpdir(), 'docagent-api-'));

before(async () => {
  t = await startTestApp({ DOCAGENT_WORKERS: '1', MAX_UPLOAD_MB: '4', MAX_UPLOAD_REQUEST_MB: '30' });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  for (const name of ['corpus', 'multipart', 't1', 't2', 'quarterly', 'other']) {
    tag[name] = (await createTag(t.database.db, alice.org.id, { name })).id;
  }
  samples = await buildSampleCorpus(join(dir, 'samples'));
  badInputs = await buildBadInputs(join(dir, 'bad'));
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

type Doc = Record<string, unknown> & { id: string; state: string; state_error: string | null; page_count: number | null };
type Uploaded = { document_id: string; document_name: string };

const base = () => `/v0/orgs/${alice.org.id}`;
const as = (token = alice.token) => bearer(token);
const normalize = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

async function uploadJson(documents: Array<Record<string, unknown>>, token = alice.token) {
  return t.app.inject({ method: 'POST', url: `${base()}/documents`, headers: as(token), payload: { documents } });
}

async function uploadedIds(response: Awaited<ReturnType<typeof uploadJson>>): Promise<Uploaded[]> {
  assert.equal(response.statusCode, 200, response.body);
  return json<{ documents: Uploaded[] }>(response).documents;
}

async function getDoc(id: string): Promise<Doc> {
  const res = await t.app.inject({ method: 'GET', url: `${base()}/documents/${id}?include_content=false`, headers: as() });
  assert.equal(res.statusCode, 200, res.body);
  return json<Doc>(res);
}

/** Waits until the text pipeline has finished with the document, whichever way. */
async function settled(id: string): Promise<Doc> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const doc = await getDoc(id);
    if (doc.state === 'ocr_completed' || doc.state === 'ocr_failed') return doc;
    if (Date.now() > deadline) throw new Error(`document ${id} is still ${doc.state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function textOf(id: string, page?: number): Promise<string> {
  const res = await t.app.inject({
    method: 'GET',
    url: `${base()}/ocr/download/text/${id}${page ? `?page_num=${page}` : ''}`,
    headers: as(),
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/plain/);
  return res.body;
}

async function assertYieldsExpectedText(sample: Sample, id: string): Promise<void> {
  const doc = await settled(id);
  assert.equal(doc.state, 'ocr_completed', `${sample.name}: ${doc.state_error}`);
  assert.equal(doc.page_count, sample.pageCount, `${sample.name} page count`);
  const text = normalize(await textOf(id));
  for (const phrase of sample.expected)
    assert.ok(text.includes(normalize(phrase)), `${sample.name} yields "${phrase}"; got:\n${text}`);
}

describe('uploading the sample corpus', () => {
  test('as JSON (base64 and data URLs) every sample yields its expected text', async () => {
    const documents = samples.map((s, i) => {
      const b64 = readFileSync(s.path).toString('base64');
      return { name: s.name, content: i % 2 === 0 ? b64 : `data:${s.mimeType};base64,${b64}` };
    });
    const uploaded = await uploadedIds(await uploadJson(documents));
    assert.deepEqual(
      uploaded.map((u) => u.document_name),
      samples.map((s) => s.name),
    );
    for (const [i, sample] of samples.entries()) await assertYieldsExpectedText(sample, uploaded[i]!.document_id);
  });

  test('as multipart, with tags and metadata, every sample yields its expected text and positioned items', async () => {
    const form = multipartBody([
      { name: 'tag_ids', value: `${tag.corpus},${tag.multipart}` },
      { name: 'metadata', value: JSON.stringify({ source: 'test-suite' }) },
      ...samples.map((s) => ({ name: 'files', filename: s.name, value: readFileSync(s.path) })),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${base()}/documents/multipart`,
      headers: { ...as(), ...form.headers },
      payload: form.payload,
    });
    const uploaded = await uploadedIds(res);
    for (const [i, sample] of samples.entries()) {
      const id = uploaded[i]!.document_id;
      await assertYieldsExpectedText(sample, id);
      const doc = await getDoc(id);
      assert.deepEqual(
        [doc.tag_ids, doc.metadata, doc.kind],
        [[tag.corpus, tag.multipart], { source: 'test-suite' }, sample.kind],
      );
      const pages = json<{ pages: Array<{ width: number; height: number; items: Array<Record<string, number>> }> }>(
        await t.app.inject({ method: 'GET', url: `${base()}/ocr/download/json/${id}`, headers: as() }),
      ).pages;
      assert.equal(pages.length, sample.pageCount);
      for (const page of pages) {
        assert.ok(page.items.length > 0, `${sample.name} has positioned text`);
        for (const item of page.items) {
          assert.ok(item.x! >= -1 && item.y! >= -1, `${sample.name}: item inside the page`);
          assert.ok(
            item.x! + item.width! <= page.width + 1 && item.y! + item.height! <= page.height + 1,
            `${sample.name}: item inside the page`,
          );
        }
      }
    }
  });
});

describe('DocRouter-shaped JSON', () => {
  const keys = (o: unknown) => Object.keys(o as object).sort();
  const DOCROUTER_DOCUMENT = ['document_name', 'upload_date', 'uploaded_by', 'state', 'tag_ids', 'type', 'metadata'];
  const LISTED = ['id', 'pdf_id', ...DOCROUTER_DOCUMENT, 'kind', 'size_bytes', 'page_count', 'state_error', 'progress'].sort();

  test('every document and text route answers with the field names of DESIGN.md', async () => {
    const invoice = samples.find((s) => s.kind === 'pdf')!;
    const bytes = readFileSync(invoice.path);
    const [uploaded] = await uploadedIds(
      await uploadJson([{ name: 'shape.pdf', content: bytes.toString('base64'), tag_ids: [tag.t1!], metadata: { k: 'v' } }]),
    );
    assert.deepEqual(keys(uploaded), ['document_id', ...DOCROUTER_DOCUMENT].sort());
    const id = uploaded!.document_id;
    await settled(id);

    const list = json(await t.app.inject({ method: 'GET', url: `${base()}/documents?skip=0&limit=2`, headers: as() }));
    assert.deepEqual(keys(list), ['documents', 'skip', 'total_count']);
    assert.deepEqual(keys((list.documents as unknown[])[0]), LISTED);

    const withContent = json(
      await t.app.inject({ method: 'GET', url: `${base()}/documents/${id}?file_type=pdf`, headers: as() }),
    );
    assert.deepEqual(keys(withContent), [...LISTED, 'content'].sort());
    assert.deepEqual(Buffer.from(withContent.content as string, 'base64'), bytes);
    assert.equal(withContent.type, 'application/pdf');
    assert.equal(withContent.pdf_id, id);
    assert.equal(withContent.uploaded_by, 'alice@example.test');
    assert.equal(withContent.progress, null, 'no stage runs');
    assert.equal((await getDoc(id)).content, null);

    const file = await t.app.inject({ method: 'GET', url: `${base()}/documents/${id}/file`, headers: as() });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'application/pdf');
    assert.match(String(file.headers['content-disposition']), /filename="shape.pdf"/);
    assert.deepEqual(file.rawPayload, bytes);

    const meta = json(await t.app.inject({ method: 'GET', url: `${base()}/ocr/download/metadata/${id}`, headers: as() }));
    // DocRouter's three fields, and ours: characters dropped because the database cannot store them.
    assert.deepEqual(keys(meta), ['n_pages', 'ocr_date', 'ocr_type', 'removed_characters']);
    assert.equal(meta.ocr_type, 'pdf_text');
    assert.equal(meta.removed_characters, 0);

    const pages = json(await t.app.inject({ method: 'GET', url: `${base()}/ocr/download/json/${id}`, headers: as() }));
    assert.deepEqual(keys(pages), ['document_id', 'n_pages', 'ocr_date', 'ocr_type', 'pages', 'removed_characters']);
    const page = (pages.pages as Array<{ items: unknown[] }>)[0]!;
    assert.deepEqual(keys(page), ['engine', 'height', 'items', 'page', 'text', 'width']);
    assert.deepEqual(keys(page.items[0]), ['height', 'text', 'width', 'x', 'y']);

    const put = await t.app.inject({
      method: 'PUT',
      url: `${base()}/documents/${id}`,
      headers: as(),
      payload: { document_name: 'renamed.pdf', tag_ids: [tag.t2!], metadata: { k: 'w' } },
    });
    assert.deepEqual(json(put), { message: 'Document updated successfully' });
    const renamed = await getDoc(id);
    assert.deepEqual([renamed.document_name, renamed.tag_ids, renamed.metadata], ['renamed.pdf', [tag.t2], { k: 'w' }]);

    const rerun = await t.app.inject({ method: 'POST', url: `${base()}/ocr/run/${id}`, headers: as() });
    assert.deepEqual(keys(json(rerun)), ['document_id', 'state']);
    assert.equal((await settled(id)).state, 'ocr_completed');

    const del = await t.app.inject({ method: 'DELETE', url: `${base()}/documents/${id}`, headers: as() });
    assert.deepEqual(json(del), { message: 'Document deleted successfully' });
    const gone = await t.app.inject({ method: 'GET', url: `${base()}/documents/${id}`, headers: as() });
    assert.equal(gone.statusCode, 404);
  });
});

describe('progress', () => {
  test('a document whose text is being extracted carries its pages done of all, listed and alone; none after', async () => {
    const blobs = new DatabaseBlobStore(t.database.db);
    // Stored without a job, so that the text runs here, held while it reports.
    const [doc] = await uploadDocuments(
      { db: t.database.db, blobs, scheduler: { scheduleTextExtraction: async () => {} } },
      { orgId: alice.org.id, role: 'admin', userId: alice.user.id },
      [
        {
          name: 'progress.txt',
          content: (async function* () {
            yield Buffer.from('placeholder');
          })(),
        },
      ],
      { maxFileBytes: 1e6, maxRequestBytes: 1e6, maxFiles: 1 },
    );
    const id = doc!.id;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const extract: ExtractFn = async (_input, { onPage }) => {
      onPage?.(1, 4);
      await held;
      const pages = [1, 2, 3, 4].map((page) => ({
        page,
        text: `page ${page}`,
        width: 1,
        height: 1,
        engine: 'plain' as const,
        items: [],
      }));
      return { pageCount: 4, pages };
    };
    const running = runTextExtraction({ db: t.database.db, blobs, extract }, id, { isLast: true });

    const expected = { stage: 'text', done: 1, total: 4 };
    const deadline = Date.now() + 30_000;
    while (JSON.stringify((await getDoc(id)).progress) !== JSON.stringify(expected) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual((await getDoc(id)).progress, expected);
    const list = json<{ documents: Doc[] }>(
      await t.app.inject({ method: 'GET', url: `${base()}/documents?name_search=progress.txt`, headers: as() }),
    );
    assert.deepEqual(
      list.documents.map((d) => [d.state, d.progress]),
      [['ocr_processing', expected]],
    );

    release();
    assert.equal(await running, true);
    const done = await getDoc(id);
    assert.deepEqual([done.state, done.progress], ['ocr_completed', null]);
  });
});

describe('listing', () => {
  test('name search, tag filter, metadata search and pagination with total_count', async () => {
    const quarterly = tag.quarterly!;
    const upload = (name: string, tagIds: string[], metadata: Record<string, string>) =>
      uploadJson([{ name, content: Buffer.from(`text of ${name}`).toString('base64'), tag_ids: tagIds, metadata }]);
    await uploadedIds(await upload('quarterly-report.txt', [quarterly], { team: 'finance' }));
    await uploadedIds(await upload('Quarterly notes.md', [quarterly, tag.other!], { team: 'ops' }));
    await uploadedIds(await upload('memo.txt', [], { team: 'finance' }));
    const list = async (query: string) =>
      json<{ documents: Doc[]; total_count: number; skip: number }>(
        await t.app.inject({ method: 'GET', url: `${base()}/documents?${query}`, headers: as() }),
      );
    const names = (r: { documents: Doc[] }) => r.documents.map((d) => d.document_name).sort();
    assert.deepEqual(names(await list('name_search=QUARTERLY')), ['Quarterly notes.md', 'quarterly-report.txt']);
    assert.deepEqual(names(await list(`tag_ids=${quarterly},${tag.other}`)), ['Quarterly notes.md']);
    assert.deepEqual(names(await list(`tag_ids=${quarterly}&metadata_search=team=finance`)), ['quarterly-report.txt']);
    const page = await list(`tag_ids=${quarterly}&skip=1&limit=1`);
    assert.deepEqual([page.documents.length, page.total_count, page.skip], [1, 2, 1]);
    const bad = await t.app.inject({ method: 'GET', url: `${base()}/documents?limit=1000`, headers: as() });
    assert.equal(bad.statusCode, 400);
    assert.match(json<{ detail: string }>(bad).detail, /limit/);
  });
});

describe('bad input', () => {
  const detailOf = (res: { body: string }) => (JSON.parse(res.body) as { detail: string }).detail;
  const countDocs = async () =>
    json<{ total_count: number }>(await t.app.inject({ method: 'GET', url: `${base()}/documents?limit=1`, headers: as() }))
      .total_count;

  test('each bad file gets a clear error at upload or ocr_failed with the reason, and others are unaffected', async () => {
    for (const bad of badInputs) {
      const before = await countDocs();
      const res = await uploadJson([{ name: bad.name, content: readFileSync(bad.path).toString('base64') }]);
      if (bad.expected.stage === 'upload') {
        assert.equal(res.statusCode, bad.expected.status, `${bad.name}: ${res.body}`);
        assert.ok(detailOf(res).includes(bad.name), `the error names the file: ${detailOf(res)}`);
        assert.equal(await countDocs(), before, `${bad.name}: nothing stored`);
        continue;
      }
      const [uploaded] = await uploadedIds(res);
      const doc = await settled(uploaded!.document_id);
      assert.equal(doc.state, 'ocr_failed', `${bad.name} fails text extraction`);
      assert.match(doc.state_error ?? '', bad.expected.message, `${bad.name}: ${doc.state_error}`);
      const text = await t.app.inject({ method: 'GET', url: `${base()}/ocr/download/text/${doc.id}`, headers: as() });
      assert.equal(text.statusCode, 409);
      assert.match(detailOf(text), /Text extraction failed .* Re-run it/);
    }
    const [good] = await uploadedIds(
      await uploadJson([{ name: 'after.txt', content: Buffer.from('still working').toString('base64') }]),
    );
    assert.equal((await settled(good!.document_id)).state, 'ocr_completed', 'the worker is still up');
    assert.equal(await textOf(good!.document_id), 'still working');
  });

  test('tag ids the organization does not have are refused, at upload and on update', async () => {
    const res = await uploadJson([{ name: 'a.txt', content: Buffer.from('x').toString('base64'), tag_ids: ['no-such-tag'] }]);
    assert.equal(res.statusCode, 400);
    assert.match(detailOf(res), /"no-such-tag"/);
    const [doc] = await uploadedIds(await uploadJson([{ name: 'b.txt', content: Buffer.from('x').toString('base64') }]));
    const put = await t.app.inject({
      method: 'PUT',
      url: `${base()}/documents/${doc!.document_id}`,
      headers: as(),
      payload: { tag_ids: ['no-such-tag'] },
    });
    assert.equal(put.statusCode, 400);
  });

  test('file names with path separators or control characters are refused', async () => {
    for (const name of ['../../etc/passwd.txt', 'dir\\file.txt', 'bell\u0007.txt', 'new\nline.txt']) {
      const res = await uploadJson([{ name, content: Buffer.from('x').toString('base64') }]);
      assert.equal(res.statusCode, 400, name);
      assert.match(detailOf(res), /path separator or a control character/);
    }
  });

  test('content that is not base64, a file over the size limit, and a request with no file are refused', async () => {
    const notBase64 = await uploadJson([{ name: 'a.txt', content: 'not base64 at all!' }]);
    assert.equal(notBase64.statusCode, 400);
    assert.match(detailOf(notBase64), /documents.0.content is neither base64/);

    const big = Buffer.alloc(4 * 1024 * 1024 + 10, 'a');
    const form = multipartBody([{ name: 'files', filename: 'big.txt', value: big }]);
    const tooBig = await t.app.inject({
      method: 'POST',
      url: `${base()}/documents/multipart`,
      headers: { ...as(), ...form.headers },
      payload: form.payload,
    });
    assert.equal(tooBig.statusCode, 413);
    assert.match(detailOf(tooBig), /"big.txt" is larger than the limit of 4 MB per file/);

    const empty = multipartBody([{ name: 'tag_ids', value: 'x' }]);
    const none = await t.app.inject({
      method: 'POST',
      url: `${base()}/documents/multipart`,
      headers: { ...as(), ...empty.headers },
      payload: empty.payload,
    });
    assert.equal(none.statusCode, 400);
    assert.match(detailOf(none), /holds no file/);
  });

  test('page_num out of range is a 400 naming the page count', async () => {
    const [doc] = await uploadedIds(await uploadJson([{ name: 'one.txt', content: Buffer.from('one page').toString('base64') }]));
    await settled(doc!.document_id);
    const res = await t.app.inject({
      method: 'GET',
      url: `${base()}/ocr/download/text/${doc!.document_id}?page_num=3`,
      headers: as(),
    });
    assert.equal(res.statusCode, 400);
    assert.match(detailOf(res), /has 1 page/);
  });

  test('deleting a document while its job runs does not disturb the worker', async () => {
    const scanned = samples.find((s) => s.expectedEngine !== 'pdf_text' && s.kind === 'pdf')!;
    const [doc] = await uploadedIds(
      await uploadJson([{ name: scanned.name, content: readFileSync(scanned.path).toString('base64') }]),
    );
    const id = doc!.document_id;
    const deadline = Date.now() + 60_000;
    while ((await getDoc(id)).state === 'uploaded' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const del = await t.app.inject({ method: 'DELETE', url: `${base()}/documents/${id}`, headers: as() });
    assert.equal(del.statusCode, 200);
    const [next] = await uploadedIds(
      await uploadJson([{ name: 'next.txt', content: Buffer.from('next one').toString('base64') }]),
    );
    assert.equal((await settled(next!.document_id)).state, 'ocr_completed');
    const gone = await t.app.inject({ method: 'GET', url: `${base()}/documents/${id}`, headers: as() });
    assert.equal(gone.statusCode, 404);
  });
});

describe('organizations', () => {
  test("another organization's member gets 404 on every document and text route", async () => {
    const [doc] = await uploadedIds(await uploadJson([{ name: 'mine.txt', content: Buffer.from('private').toString('base64') }]));
    const id = doc!.document_id;
    const urls = [
      ['GET', `/documents/${id}`],
      ['GET', `/documents/${id}/file`],
      ['PUT', `/documents/${id}`],
      ['DELETE', `/documents/${id}`],
      ['GET', `/ocr/download/text/${id}`],
      ['GET', `/ocr/download/metadata/${id}`],
      ['GET', `/ocr/download/json/${id}`],
      ['POST', `/ocr/run/${id}`],
    ] as const;
    for (const [method, path] of urls) {
      const ownOrg = await t.app.inject({
        method,
        url: `/v0/orgs/${bob.org.id}${path}`,
        headers: as(bob.token),
        ...(method === 'PUT' ? { payload: {} } : {}),
      });
      assert.equal(ownOrg.statusCode, 404, `${method} ${path} in bob's org`);
      const aliceOrg = await t.app.inject({ method, url: `${base()}${path}`, headers: as(bob.token) });
      assert.equal(aliceOrg.statusCode, 404, `${method} ${path} in alice's org`);
    }
  });
});
