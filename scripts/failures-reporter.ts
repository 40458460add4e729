import { relative } from 'node:path';
import { inspect } from 'node:util';

/** One failure's text is cut past this: a browser test's error carries its page's traffic. */
const MOST_CHARS = 6_000;

interface FailEvent {
  type: 'test:fail';
  data: { name: string; file?: string; line?: number; details: { error: Error & { failureType?: string; cause?: unknown } } };
}

/**
 * A `node --test` reporter that writes only the failed tests, each with its error, so that
 * `npm test` can repeat them after the last pass: CI keeps the end of a run's output, where the
 * first pass's own summary of its failures is long gone.
 */
export default async function* failures(source: AsyncIterable<{ type: string }>): AsyncGenerator<string> {
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, file, line, details } = (event as FailEvent).data;
    // A suite fails with its failed tests; each of them is reported on its own.
    if (details.error.failureType === 'subtestsFailed') continue;
    const where = file ? ` (${relative(process.cwd(), file)}${line ? `:${line}` : ''})` : '';
    const error = inspect(details.error.cause ?? details.error, { depth: 4 });
    yield `✖ ${name}${where}\n${error.length > MOST_CHARS ? `${error.slice(0, MOST_CHARS)}\n[… cut]` : error}\n\n`;
  }
}
