import type { ExtractionResult } from '../api/extraction';

const badge = 'rounded-full px-2 py-0.5 text-xs font-medium';

/** Whether people corrected or verified the result, and how many of its values are of low confidence. */
export function ResultBadges({ result }: { result: ExtractionResult }) {
  const toReview = result.fields_to_review?.length ?? 0;
  return (
    <span className="flex gap-1.5">
      {toReview > 0 && (
        <span className={`${badge} bg-amber-50 text-amber-800 ring-1 ring-amber-200 ring-inset`}>{toReview} to review</span>
      )}
      {result.is_edited && <span className={`${badge} bg-amber-50 text-amber-800`}>edited</span>}
      {result.is_verified && <span className={`${badge} bg-emerald-50 text-emerald-700`}>verified</span>}
    </span>
  );
}
