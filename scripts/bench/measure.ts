import { cpus, totalmem } from 'node:os';

/**
 * Median wall time of `runs` calls of `fn`, in seconds, after one warm-up call; with
 * `idleMs`, the process idles that long (untimed) before each call, as a server between uploads.
 */
export async function medianSeconds(runs: number, fn: () => unknown, idleMs = 0): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (idleMs > 0) await new Promise((resolve) => setTimeout(resolve, idleMs));
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * Median wall times (seconds) of `ours` and `baseline`, called in turn `runs` times each after
 * one warm-up call of each: a shared machine's noise (another VM, a frequency change) then falls
 * on both alike instead of on whichever ran during it.
 */
export async function pairedMedianSeconds(
  runs: number,
  ours: () => unknown,
  baseline: () => unknown,
): Promise<{ ours: number; baseline: number }> {
  await baseline();
  await ours();
  const times = { ours: [] as number[], baseline: [] as number[] };
  const timed = async (fn: () => unknown, into: number[]) => {
    const start = process.hrtime.bigint();
    await fn();
    into.push(Number(process.hrtime.bigint() - start) / 1e9);
  };
  for (let i = 0; i < runs; i++) {
    await timed(baseline, times.baseline);
    await timed(ours, times.ours);
  }
  return { ours: median(times.ours), baseline: median(times.baseline) };
}

export const machine = () => ({
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memory_gb: Math.round(totalmem() / 1024 ** 3),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
});

/** A Markdown table, so the output pastes into BENCHMARKS.md as it is. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The value below which `p` percent of the values fall (nearest rank); NaN for no values. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (values: number[]) => percentile(values, 50);

/** Epoch milliseconds with sub-millisecond precision, comparable with the fake provider's `sent` stamps. */
export const nowMs = () => performance.timeOrigin + performance.now();
