import { relative, resolve } from 'node:path';

/** How many of a pass's files are listed. */
const LISTED = 12;

interface CompleteEvent {
  type: 'test:complete';
  data: { name: string; nesting: number; file?: string; details: { duration_ms: number } };
}

/**
 * A `node --test` reporter that lists, at the end of a pass, its slowest test files with their
 * whole time (process start, hooks and tests), and how long the files took together. With three
 * files at a time a pass lasts about a third of that sum, unless one file is longer than that
 * third: the list shows where the suite's time goes before it reaches CI's budget (README,
 * "Tests").
 */
export default async function* slowestFiles(source: AsyncIterable<{ type: string }>): AsyncGenerator<string> {
  const durations: Array<{ file: string; ms: number }> = [];
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { name, nesting, file, details } = (event as CompleteEvent).data;
    // A file's own entry: the runner names it by the file's path.
    if (nesting !== 0 || !file || resolve(name) !== file) continue;
    durations.push({ file: relative(process.cwd(), file), ms: details.duration_ms });
  }
  if (durations.length === 0) return;
  durations.sort((a, b) => b.ms - a.ms);
  const total = durations.reduce((sum, d) => sum + d.ms, 0);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  yield `\nslowest test files of this pass (${durations.length} files, ${seconds(total)} in all):\n`;
  for (const { file, ms } of durations.slice(0, LISTED)) yield `  ${seconds(ms).padStart(8)}  ${file}\n`;
}
