interface CitationMarksProps {
  /** Lets the value's input be described by the marks. */
  id?: string;
  review: boolean;
  notFound: boolean;
  /** The citation's confidence (0..1), when there is one. */
  confidence?: number;
  /** How sure the model was of the value (0..1), when its provider said. */
  probability?: number;
  /** Shorter, for a list item or a table cell. */
  compact?: boolean;
}

/** "review" for a value of low confidence, "not found in the document" for a value the document does not have. */
export function CitationMarks({ id, review, notFound, confidence, probability, compact = false }: CitationMarksProps) {
  if (!review && !notFound) return null;
  const percent = (share: number) => `${Math.round(share * 100)} %`;
  const model = probability === undefined ? '' : ` (the model was ${percent(probability)} sure of it)`;
  const sure = confidence === undefined ? '' : `Confidence ${percent(confidence)}${model}: `;
  return (
    <span id={id} className="inline-flex flex-wrap items-center gap-1.5 text-xs">
      {review && (
        <span
          className="rounded-full bg-amber-50 px-1.5 py-px font-medium text-amber-800 ring-1 ring-amber-200 ring-inset"
          title={`${sure}check this value against the document`}
        >
          review
        </span>
      )}
      {notFound && (
        <span className="whitespace-nowrap text-slate-500 italic" title="The value is not in the document's text">
          {compact ? (
            <>
              not found<span className="sr-only"> in the document</span>
            </>
          ) : (
            'not found in the document'
          )}
        </span>
      )}
    </span>
  );
}
