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

/** About two minutes of turns on this machine kind: more is a mistyped number. */
const MOST_WARM_UP_TURNS = 2_000;
/** Runs of the concurrency benchmark's levels: each takes about half a minute. */
const MOST_RUNS = 20;

/**
 * `npm run bench [-- name ...] [--db postgres] [--profile] [--baseline DIR] [--warm-up N] [--runs N]`: runs the named
 * benchmarks (all by default), prints their tables and writes bench-results/<name>.json. The
 * servers run on the embedded database, or with `--db postgres` on a fresh PostgreSQL database of
 * each run (BENCH_POSTGRES_URL, default the local server), dropped after; `--profile` runs them
 * under `--cpu-prof`, writing bench-results/profiles/<name>/. `engine --baseline DIR` runs the
 * server of another checkout (its own `npm install` done) beside this one's, turn for turn, and
 * gives the difference of the two in each round; `engine --warm-up N` measures after N turns
 * (each server's) instead of the default 2, for the overhead of a server that has been running.
 * `concurrency --runs N` measures its single-process levels N times, each on a fresh server and
 * database, and gives each level's median and range: one run's p99 moves by more than most
 * changes do. Not part of `npm test`: numbers, not verdicts.
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
    'warm-up': { type: 'string' },
    runs: { type: 'string' },
  },
});
/** A usage error: one line, exit code 2. */
function refuse(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
/** `--flag` applies to one benchmark alone. */
function onlyFor(benchmark: string, flag: string, usage: string): void {
  if (asked.length !== 1 || asked[0] !== benchmark)
    refuse(`${flag} is for the ${benchmark} benchmark only: npm run bench -- ${benchmark} ${usage}.`);
}

if (values.db !== 'pglite' && values.db !== 'postgres') refuse(`--db is pglite (the default) or postgres, not ${values.db}.`);
const unknown = asked.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) refuse(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(BENCHMARKS).join(', ')}.`);
if (values.baseline !== undefined) {
  onlyFor('engine', '--baseline', '--baseline DIR');
  try {
    serverOfCheckout(values.baseline);
  } catch (error) {
    refuse((error as Error).message);
  }
}
const warmUpTurns = values['warm-up'] === undefined ? undefined : Number(values['warm-up']);
if (warmUpTurns !== undefined) {
  onlyFor('engine', '--warm-up', '--warm-up N');
  // At least one: the floor replays the requests of the last warm-up turn.
  if (!Number.isInteger(warmUpTurns) || warmUpTurns < 1 || warmUpTurns > MOST_WARM_UP_TURNS) {
    refuse(`--warm-up is a whole number of turns from 1 to ${MOST_WARM_UP_TURNS}, not ${values['warm-up']}.`);
  }
}
const runs = values.runs === undefined ? undefined : Number(values.runs);
if (runs !== undefined) {
  onlyFor('concurrency', '--runs', '--runs N');
  if (!Number.isInteger(runs) || runs < 1 || runs > MOST_RUNS)
    refuse(`--runs is a whole number from 1 to ${MOST_RUNS}, not ${values.runs}.`);
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
    warmUpTurns,
    runs,
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
