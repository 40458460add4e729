import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runIngestBenchmark } from './bench/ingest.ts';
import { machine } from './bench/measure.ts';

/**
 * `npm run bench [-- name ...]`: runs the named benchmarks (all by default), prints their
 * tables and writes bench-results/<name>.json. Not part of `npm test`: numbers, not verdicts.
 */
const BENCHMARKS: Record<string, () => Promise<{ table: string; results: unknown }>> = {
  ingest: runIngestBenchmark,
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  process.stderr.write(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(BENCHMARKS).join(', ')}.\n`);
  process.exit(2);
}
const outDir = join(process.cwd(), 'bench-results');
mkdirSync(outDir, { recursive: true });
for (const name of asked.length > 0 ? asked : Object.keys(BENCHMARKS)) {
  process.stdout.write(`\n## ${name}\n\n`);
  const { table, results } = await BENCHMARKS[name]!();
  process.stdout.write(`${table}\n`);
  const file = join(outDir, `${name}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ benchmark: name, at: new Date().toISOString(), machine: machine(), results }, null, 2)}\n`,
  );
  process.stdout.write(`\n(written to ${file})\n`);
}
