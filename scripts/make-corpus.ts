import { basename, resolve } from 'node:path';
import { BAD_DOCUMENT_NAMES, buildBadInputs, buildSampleCorpus } from '@docagent/core/sample-corpus';

/**
 * `node scripts/make-corpus.ts [dir]`: writes the generated sample documents and bad inputs
 * (the ones the tests use) to a folder, default ./corpus, to look at, upload by hand or
 * benchmark, and prints what each must yield.
 */

function table(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A name as a quoted string with every control character escaped (JSON leaves DEL as it is). */
const visible = (name: string) => JSON.stringify(name).replaceAll('\u007f', '\\u007f');

const dir = resolve(process.argv[2] ?? 'corpus');
const started = performance.now();
const samples = await buildSampleCorpus(resolve(dir, 'samples'));
const bad = await buildBadInputs(resolve(dir, 'bad'));
const seconds = ((performance.now() - started) / 1000).toFixed(2);

const sampleRows = samples.map((s) => [s.name, s.kind, String(s.pageCount), s.expectedEngine, s.expected.join(' / ')]);
const badRows = bad.map((b) => [
  b.name,
  basename(b.path),
  b.description,
  b.expected.stage === 'upload' ? `refused at upload (${b.expected.status})` : `text extraction fails: ${b.expected.reason}`,
]);
process.stdout.write(
  [
    `Samples in ${resolve(dir, 'samples')}:`,
    '',
    table(['file', 'kind', 'pages', 'engine', 'the text contains'], sampleRows),
    '',
    `Bad inputs in ${resolve(dir, 'bad')}:`,
    '',
    table(['upload as', 'file', 'what it is', 'expected outcome'], badRows),
    '',
    `Document names refused at upload (400) whatever the content: ${BAD_DOCUMENT_NAMES.map(visible).join(', ')}`,
    '',
    `Generated in ${seconds} s.`,
    '',
  ].join('\n'),
);
