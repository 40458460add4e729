import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { Citation, ExtractionResult } from '../api/extraction';
import { useIsActiveCitation, useShowCitation } from '../citations/activeCitation';
import { isWithin } from '../citations/citationPaths.ts';
import { citedFieldAttributes } from '../citations/focusField';

interface ResultCitations {
  /** The result's prompt revision, which tells its fields from another result's. */
  source: string;
  byPath: Map<string, Citation>;
  review: string[];
}

const ResultCitationsContext = createContext<ResultCitations | null>(null);

/** Gives the fields of a result's form their citations and review marks. */
export function ResultCitationsProvider({ result, children }: { result: ExtractionResult; children: ReactNode }) {
  const { prompt_revid: source, citations, fields_to_review: review } = result;
  const value = useMemo(
    () => ({
      source,
      byPath: new Map((citations ?? []).map((citation) => [citation.path, citation])),
      review: review ?? [],
    }),
    [source, citations, review],
  );
  return <ResultCitationsContext value={value}>{children}</ResultCitationsContext>;
}

export interface CitedField {
  citation: Citation | undefined;
  /** The value's confidence is under the review threshold. */
  review: boolean;
  /** The value was looked for and is nowhere in the document. */
  notFound: boolean;
  /** Its boxes are the ones the viewer shows. */
  active: boolean;
  /** For the element around the value's input: showing its citation on hover and focus, found from a box. */
  target: ReturnType<typeof citedFieldAttributes> & { onMouseEnter: () => void; onFocus: () => void };
}

/** A leaf value's citation, what to mark it with, and the handlers that show it in the viewer. */
export function useCitedField(path: string): CitedField {
  const context = useContext(ResultCitationsContext);
  const show = useShowCitation();
  const source = context?.source ?? '';
  const active = useIsActiveCitation(source, path);
  const citation = context?.byPath.get(path);
  const located = citation && citation.match !== 'not_found' && citation.page !== null && citation.boxes.length > 0;
  const point = () => {
    if (context) show(located ? { source, citation } : null);
  };
  return {
    citation,
    review: context?.review.includes(path) ?? false,
    notFound: citation?.match === 'not_found',
    active,
    target: { ...citedFieldAttributes(source, path), onMouseEnter: point, onFocus: point },
  };
}

/** Whether any value at or inside `path` is to be reviewed: for a value edited as JSON as a whole. */
export function useReviewWithin(path: string): boolean {
  const context = useContext(ResultCitationsContext);
  return context?.review.some((reviewed) => isWithin(reviewed, path)) ?? false;
}
