import { resolve } from 'node:path';
import { buildBadInputs, buildSampleCorpus } from '@docagent/core/sample-corpus';

/**
 * `node scripts/make-corpus.ts [dir]`: writes the generated sample documents and bad inputs
 * (the ones the tests use) to a folder, default ./corpus, to look at or to upload by hand.
 */
const dir = resolve(process.argv[2] ?? 'corpus');
const samples = await buildSampleCorpus(resolve(dir, 'samples'));
const bad = await buildBadInputs(resolve(dir, 'bad'));
process.stdout.write(`Samples in ${dir}/samples:\n`);
for (const s of samples)
  process.stdout.write(`  ${s.name.padEnd(28)} ${s.kind.padEnd(9)} ${s.pageCount} page(s), yields: ${s.expected.join(' | ')}\n`);
process.stdout.write(`Bad inputs in ${dir}/bad:\n`);
for (const b of bad) {
  const outcome =
    b.expected.stage === 'upload' ? `refused at upload (${b.expected.status})` : `ocr_failed (${b.expected.reason})`;
  process.stdout.write(`  ${b.name.padEnd(28)} ${outcome}\n`);
}
