import type { ExtractionResult } from '../api/extraction';

const badge = 'rounded-full px-2 py-0.5 text-xs font-medium';

/** Whether people corrected or verified the result. */
export function ResultBadges({ result }: { result: ExtractionResult }) {
  return (
    <span className="flex gap-1.5">
      {result.is_edited && <span className={`${badge} bg-amber-50 text-amber-800`}>edited</span>}
      {result.is_verified && <span className={`${badge} bg-emerald-50 text-emerald-700`}>verified</span>}
    </span>
  );
}
