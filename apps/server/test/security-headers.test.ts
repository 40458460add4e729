import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let member: Awaited<ReturnType<typeof seedMember>>;

before(async () => {
  t = await startTestApp();
  member = await seedMember(t.database, 'headers');
});
after(async () => {
  await t.close();
});

const documentsPath = () => `/v0/orgs/${member.org.id}/documents`;

/** A policy's directives by name, each with its sources. */
function directives(policy: string | undefined): Map<string, string[]> {
  assert.ok(policy, 'a Content-Security-Policy is set');
  return new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0] !== '')
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

function assertAppHeaders(response: LightMyRequestResponse, label: string): void {
  const { headers } = response;
  const policy = directives(headers['content-security-policy'] as string | undefined);
  assert.deepEqual(
    Object.fromEntries(policy),
    {
      'default-src': ["'self'"],
      'script-src': ["'self'", "'wasm-unsafe-eval'"],
      'img-src': ["'self'", 'data:', 'blob:'],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
    `${label}: the app's policy allows the app itself and nothing else`,
  );
  assert.equal(headers['x-content-type-options'], 'nosniff', label);
  assert.equal(headers['x-frame-options'], 'DENY', label);
  assert.equal(headers['referrer-policy'], 'same-origin', label);
  assert.equal(headers['cross-origin-opener-policy'], 'same-origin', label);
  assert.equal(headers['cross-origin-resource-policy'], 'same-origin', label);
}

test('API responses, the web app, its assets and not-found answers carry the security headers', async () => {
  const list = await t.app.inject({ method: 'GET', url: documentsPath(), headers: bearer(member.token) });
  assert.equal(list.statusCode, 200, list.body);
  assertAppHeaders(list, 'an API response');

  const refused = await t.app.inject({ method: 'GET', url: documentsPath() });
  assert.equal(refused.statusCode, 401);
  assertAppHeaders(refused, 'a refused API call');

  const index = await t.app.inject({ method: 'GET', url: '/' });
  assert.equal(index.statusCode, 200);
  assert.match(String(index.headers['content-type']), /^text\/html/, 'the built web app is served (npm run build)');
  assertAppHeaders(index, "the web app's index.html");
  const script = /<script type="module" crossorigin src="([^"]+)"/.exec(index.body)?.[1];
  assert.ok(script, 'index.html loads its script from the app, not inline');
  assert.ok(!/<script(?![^>]*\bsrc=)[^>]*>/.test(index.body), 'index.html has no inline script');
  const asset = await t.app.inject({ method: 'GET', url: script });
  assert.equal(asset.statusCode, 200);
  assertAppHeaders(asset, 'a script of the web app');

  const clientRoute = await t.app.inject({ method: 'GET', url: `/orgs/${member.org.id}/documents` });
  assert.equal(clientRoute.statusCode, 200);
  assertAppHeaders(clientRoute, 'a client-side route');

  const missing = await t.app.inject({ method: 'GET', url: '/v0/no-such-route' });
  assert.equal(missing.statusCode, 404);
  assertAppHeaders(missing, 'an unknown API route');
  const missingDocument = await t.app.inject({
    method: 'GET',
    url: `${documentsPath()}/no-such-document/file`,
    headers: bearer(member.token),
  });
  assert.equal(missingDocument.statusCode, 404);
  assertAppHeaders(missingDocument, 'an unknown document');
});

async function pdfBytes(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([300, 200]);
  page.drawText('A PDF', { x: 20, y: 150, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return pdf.save();
}

/** RFC 5987 wants the quote and the brackets percent-encoded, and encodeURIComponent leaves them. */
const MARKDOWN_NAME = "Notes (März) 'draft'.md";

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

test('uploaded files: PDFs and images inline, text, Markdown and CSV as downloads, none able to run anything', async () => {
  const files: Array<{ name: string; bytes: Uint8Array; type: string; disposition: 'inline' | 'attachment' }> = [
    { name: 'scan.pdf', bytes: await pdfBytes(), type: 'application/pdf', disposition: 'inline' },
    { name: 'photo.png', bytes: PNG, type: 'image/png', disposition: 'inline' },
    {
      name: 'page.txt',
      bytes: Buffer.from('<html><script>alert(1)</script></html>\n'),
      type: 'text/plain',
      disposition: 'attachment',
    },
    {
      name: MARKDOWN_NAME,
      bytes: Buffer.from('# Notes\n\n<img src=x onerror=alert(1)>\n'),
      type: 'text/markdown',
      disposition: 'attachment',
    },
    { name: 'table.csv', bytes: Buffer.from('a,b\n1,2\n3,4\n'), type: 'text/csv', disposition: 'attachment' },
  ];
  const upload = await t.app.inject({
    method: 'POST',
    url: documentsPath(),
    headers: bearer(member.token),
    payload: { documents: files.map(({ name, bytes }) => ({ name, content: Buffer.from(bytes).toString('base64') })) },
  });
  assert.equal(upload.statusCode, 200, upload.body);
  const stored = json<{ documents: Array<{ document_id: string; document_name: string }> }>(upload).documents;

  for (const file of files) {
    const id = stored.find((document) => document.document_name === file.name)?.document_id;
    assert.ok(id, `${file.name} was stored`);
    const response = await t.app.inject({ method: 'GET', url: `${documentsPath()}/${id}/file`, headers: bearer(member.token) });
    assert.equal(response.statusCode, 200, response.body);
    assert.ok(response.rawPayload.equals(Buffer.from(file.bytes)), `${file.name}: the very bytes`);
    assert.match(String(response.headers['content-type']), new RegExp(`^${file.type}`), file.name);
    const disposition = String(response.headers['content-disposition']);
    assert.ok(disposition.startsWith(`${file.disposition}; `), `${file.name}: ${disposition}`);
    const encoded = file.name === MARKDOWN_NAME ? 'Notes%20%28M%C3%A4rz%29%20%27draft%27.md' : file.name;
    assert.ok(disposition.endsWith(`; filename*=UTF-8''${encoded}`), `${file.name}: ${disposition}`);
    assert.equal(response.headers['x-content-type-options'], 'nosniff', file.name);
    const policy = directives(response.headers['content-security-policy'] as string | undefined);
    assert.deepEqual(policy.get('sandbox'), [], `${file.name}: opened on its own, it is sandboxed`);
    assert.deepEqual(policy.get('default-src'), ["'none'"], `${file.name}: and loads nothing`);
    assert.equal(policy.get('script-src'), undefined, `${file.name}: no script source is allowed`);
  }

  // The same bytes as base64 in JSON are data, whatever they are.
  const pageId = stored.find((document) => document.document_name === 'page.txt')?.document_id;
  const withContent = await t.app.inject({ method: 'GET', url: `${documentsPath()}/${pageId}`, headers: bearer(member.token) });
  assert.equal(withContent.statusCode, 200, withContent.body);
  assert.match(String(withContent.headers['content-type']), /^application\/json/);
  assertAppHeaders(withContent, 'a document with its content');
});
