import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { checkDocumentName, SNIFF_BYTES, sniffDocumentType } from '../src/index.ts';
import {
  BAD_DOCUMENT_NAMES,
  type BadInput,
  buildBadInputs,
  buildSampleCorpus,
  type Sample,
} from '../src/testing/sample-corpus.ts';
import { openPdf } from '../src/text/pdf-document.ts';

const dir = mkdtempSync(join(tmpdir(), 'docagent-corpus-'));
let samples: Sample[];
let badInputs: BadInput[];

before(async () => {
  samples = await buildSampleCorpus(join(dir, 'samples'));
  badInputs = await buildBadInputs(join(dir, 'bad'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const head = (path: string) => new Uint8Array(readFileSync(path)).subarray(0, SNIFF_BYTES);

test('every sample is what it says: upload sniffing finds its kind and type', async () => {
  assert.deepEqual([...new Set(samples.map((s) => s.kind))].sort(), ['csv', 'image', 'markdown', 'pdf']);
  for (const s of samples) {
    assert.deepEqual(await sniffDocumentType(s.name, head(s.path)), { kind: s.kind, mimeType: s.mimeType }, s.name);
    assert.equal(s.pagePhrases.length, s.pageCount, `${s.name}: one phrase per page`);
  }
});

test('the bad inputs meant for upload are refused there, naming the file', async () => {
  const refused = badInputs.filter((b) => b.expected.stage === 'upload');
  assert.deepEqual(refused.map((b) => b.name).sort(), ['empty.txt', 'invoice.pdf']);
  for (const bad of refused) {
    await assert.rejects(sniffDocumentType(bad.name, head(bad.path)), (error: Error) => error.message.includes(`"${bad.name}"`));
  }
  for (const name of BAD_DOCUMENT_NAMES) {
    assert.throws(() => checkDocumentName(name), /path separator or a control character/, JSON.stringify(name));
  }
});

test('the encrypted PDF is one pdf.js asks a password for', async () => {
  const encrypted = badInputs.find((b) => b.name === 'encrypted.pdf')!;
  await assert.rejects(openPdf(new Uint8Array(readFileSync(encrypted.path))), { name: 'PasswordException' });
});
