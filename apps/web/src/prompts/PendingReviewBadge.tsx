/** Marks a prompt auto-create proposed and nobody accepted yet: it runs on no other document until someone does. */
export function PendingReviewBadge() {
  return (
    <span className="inline-flex rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-800">
      auto-created, pending review
    </span>
  );
}
