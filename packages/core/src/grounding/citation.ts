/** A box on a page: PDF points from the page's top-left corner (pixels for images), y downwards. */
export interface CitationBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type CitationMatch = 'exact' | 'normalized' | 'fuzzy' | 'not_found';

/** Where one leaf value of a result was read from. */
export interface Citation {
  /** The leaf's JSON path, dotted with [i] for arrays: "total", "line_items[2].amount", "parties[0]". */
  path: string;
  /** 1-based; null when not found. */
  page: number | null;
  /** One box per line of the matched words; [] when not found. */
  boxes: CitationBox[];
  /** The matched words as they are on the page ('' when not found). */
  text: string;
  match: CitationMatch;
  /** 0..1: from the match, and no more than `probability` when there is one. */
  confidence: number;
  /** How sure the model was of the value (0..1), when its provider reported token log-probabilities. */
  probability?: number;
}

/** Confidence of each kind of match (a fuzzy match's is scaled by its similarity, see locate.ts). */
export const MATCH_CONFIDENCE = { exact: 0.95, normalized: 0.9, fuzzyLow: 0.5, fuzzyHigh: 0.8, notFound: 0.2 } as const;

/** The paths of the fields whose citation is less sure than the threshold (the server's DOCAGENT_REVIEW_CONFIDENCE). */
export function fieldsToReview(citations: readonly Citation[], threshold: number): string[] {
  return citations.filter((c) => c.confidence < threshold).map((c) => c.path);
}
