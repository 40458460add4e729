import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchOptions } from './bench/agent-stack.ts';
import { runApiBenchmark } from './bench/api.ts';
import { runConcurrencyBenchmark } from './bench/concurrency.ts';
import { runContextBenchmark } from './bench/context.ts';
import { runDataBenchmark } from './bench/data.ts';
import { runEngineBenchmark } from './bench/engine.ts';
import { runGroundingBenchmark } from './bench/grounding.ts';
import { runIngestBenchmark } from './bench/ingest.ts';
import { machine } from './bench/measure.ts';
import { serverOfCheckout } from './bench/server.ts';

/**
 * `npm run bench [-- name ...] [--db postgres] [--profile] [--baseline DIR]`: runs the named
 * benchmarks (all by default), prints their tables and writes bench-results/<name>.json. The
 * servers run on the embedded database, or with `--db postgres` on a fresh PostgreSQL database of
 * each run (BENCH_POSTGRES_URL, default the local server), dropped after; `--profile` runs them
 * under `--cpu-prof`, writing bench-results/profiles/<name>/. `engine --baseline DIR` runs the
 * server of another checkout (its own `npm install` done) beside this one's, turn for turn, and
 * gives the difference of the two in each round. Not part of `npm test`: numbers, not verdicts.
 */
const BENCHMARKS: Record<string, (options: BenchOptions) => Promise<{ table: string; results: unknown }>> = {
  ingest: runIngestBenchmark,
  engine: runEngineBenchmark,
  concurrency: runConcurrencyBenchmark,
  context: runContextBenchmark,
  api: runApiBenchmark,
  data: runDataBenchmark,
  grounding: runGroundingBenchmark,
};

const { values, positionals: asked } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: 'string', default: 'pglite' },
    profile: { type: 'boolean', default: false },
    baseline: { type: 'string' },
  },
});
if (values.db !== 'pglite' && values.db !== 'postgres') {
  process.stderr.write(`--db is pglite (the default) or postgres, not ${values.db}.\n`);
  process.exit(2);
}
const unknown = asked.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  process.stderr.write(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(BENCHMARKS).join(', ')}.\n`);
  process.exit(2);
}
if (values.baseline !== undefined) {
  if (asked.length !== 1 || asked[0] !== 'engine') {
    process.stderr.write('--baseline compares the engine benchmark only: npm run bench -- engine --baseline DIR.\n');
    process.exit(2);
  }
  try {
    serverOfCheckout(values.baseline);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  }
}
const outDir = join(process.cwd(), 'bench-results');
mkdirSync(outDir, { recursive: true });
const started = performance.now();
for (const name of asked.length > 0 ? asked : Object.keys(BENCHMARKS)) {
  process.stdout.write(`\n## ${name}\n\n`);
  const benchStarted = performance.now();
  const { table, results } = await BENCHMARKS[name]!({
    db: values.db,
    profileDir: values.profile ? join(outDir, 'profiles', name) : undefined,
    baseline: values.baseline,
  });
  process.stdout.write(`${table}\n`);
  const file = join(outDir, `${name}.json`);
  const seconds = (performance.now() - benchStarted) / 1000;
  writeFileSync(
    file,
    `${JSON.stringify({ benchmark: name, at: new Date().toISOString(), machine: machine(), seconds, results }, null, 2)}\n`,
  );
  process.stdout.write(`\n(${seconds.toFixed(0)} s; written to ${file})\n`);
}
process.stdout.write(`\nAll done in ${((performance.now() - started) / 1000).toFixed(0)} s.\n`);
