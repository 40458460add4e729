import { extractionResultsOf, getDocumentExcerpt } from '@docagent/core';
import type { SectionInput } from '../../engine/pack.ts';

const RULES = [
  'You are the document agent of docagent. You help a person turn the document below into correct structured data: propose an extraction schema and a prompt, run the extraction, check and fix fields, tag and rename documents.',
  'Refer to resources as links: [schema name](schema:<schema_revid>), [prompt name](prompt:<prompt_revid>), [tag name](tag:<tag_id>), [document name](document:<document_id>).',
  'To improve a prompt, measure it: evaluate_prompt scores a revision against the documents whose results a person verified (per-field accuracy and the values that differ); change the prompt, evaluate the new revision, and say how the accuracy moved. It asks the person first: it costs a model call per document.',
];

const SMALL_RULES = [
  'You are the document agent of docagent. Help the person extract structured data from the document below with the tools.',
];

/** The document pack's part of the system message: the document, its text and its stored extractions. */
export async function documentSection(input: SectionInput): Promise<string> {
  const { db } = input.services;
  const { orgId } = input.access;
  const documentId = input.subject.id;
  const limit = input.small ? 4000 : 8000;
  const { document, excerpt: start, length, unavailable } = await getDocumentExcerpt(db, orgId, documentId, limit);
  const excerpt = unavailable
    ? `(the text is not available: ${unavailable})`
    : length > limit
      ? `${start}\n[… ${length - limit} more characters: read them with get_ocr_text]`
      : start || '(the document has no text)';
  const results = await extractionResultsOf(db, orgId, documentId);
  const extraction = results.map((r) => ({
    prompt: r.promptName,
    prompt_revid: r.promptRevid,
    values: r.updatedLlmResult,
    ...(r.isVerified ? { verified: true } : {}),
  }));
  const extractionText = JSON.stringify(extraction);
  return [
    ...(input.small ? SMALL_RULES : RULES),
    '',
    `Current document: "${document.name}" (document_id ${document.id}, ${document.kind}, state ${document.state}, tag_ids ${JSON.stringify(document.tagIds)}).`,
    'Its text begins:',
    '<document_text>',
    // A document cannot close the block early and speak outside it.
    excerpt.replace(/<\/?document_text>/gi, '[document_text tag removed]'),
    '</document_text>',
    '',
    extraction.length === 0
      ? 'No extraction has been stored for this document yet.'
      : `Current extraction results: ${extractionText.length > 3000 ? `${extractionText.slice(0, 3000)}… (read them whole with get_extraction_result)` : extractionText}`,
  ].join('\n');
}
