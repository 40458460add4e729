import type { PageText } from '../text/types.ts';
import type { Citation } from './citation.ts';
import { leafValues } from './leaf-values.ts';
import { locateLeaf } from './locate.ts';
import { indexPage } from './page-words.ts';
import type { ValueProbabilities } from './value-probabilities.ts';

/**
 * Where each string and number of a result is in the document: one citation per leaf, in the
 * result's order. The pages are indexed once for all the leaves (their words, the strings
 * searched, and, when first needed, the amounts and dates they hold), so that a long document
 * costs one pass plus a search per leaf. No pages (text not ready, or none): every leaf is not found.
 * Where the model said how sure it was of a value (value-probabilities.ts), the citation is no
 * surer than that: a value found on the page that the model hesitated over is still to review.
 */
export function citeResult(
  pages: readonly PageText[],
  result: Record<string, unknown>,
  probabilities: ValueProbabilities = {},
): Citation[] {
  const indexed = pages.map(indexPage);
  return leafValues(result).flatMap((leaf) => {
    const located = locateLeaf(indexed, leaf);
    const probability = probabilities[leaf.path];
    const citation =
      probability === undefined ? located : { ...located, probability, confidence: Math.min(located.confidence, probability) };
    // Prose the model wrote (a summary) is not copied from the page: unfound, it has no citation
    // and nothing to review, or every document would be "to review" for its default summary.
    const prose = typeof leaf.value === 'string' && leaf.value.length > PROSE_CHARS;
    return prose && citation.match === 'not_found' ? [] : [citation];
  });
}

/** Longer strings are prose rather than values read off the page (fuzzy matching stops there too). */
const PROSE_CHARS = 200;
