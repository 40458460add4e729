import type { ExportedResult } from './export-query.ts';

/** A result as the JSON export holds it: the stored value, unflattened. */
export const jsonOf = (result: ExportedResult) => ({
  document_id: result.documentId,
  document_name: result.documentName,
  prompt_revid: result.promptRevid,
  updated_llm_result: result.value,
  is_verified: result.isVerified,
  is_edited: result.isEdited,
  model: result.model,
  updated_at: result.updatedAt.toISOString(),
});

/** A JSON array, a page of results at a time. */
export async function* jsonChunks(pages: AsyncIterable<ExportedResult[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const page of pages) {
    if (page.length === 0) continue;
    const items = page.map((result) => JSON.stringify(jsonOf(result)));
    yield `${first ? '\n' : ',\n'}${items.join(',\n')}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
