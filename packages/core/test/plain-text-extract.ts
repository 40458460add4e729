import type { ExtractFn } from '../src/index.ts';

/** A text job's reader that takes a file's bytes as its one page of text, for tests of what comes after. */
export const plainTextExtract: ExtractFn = async ({ bytes }) => {
  const text = new TextDecoder().decode(bytes);
  return { pageCount: 1, pages: [{ page: 1, text, width: 1, height: 1, engine: 'plain', items: [] }] };
};
