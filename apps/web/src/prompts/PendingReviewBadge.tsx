import { StatusPill } from '../components/StatusPill';

/** Marks a prompt auto-create proposed and nobody accepted yet: it runs on no other document until someone does. */
export function PendingReviewBadge() {
  return <StatusPill tone="review">auto-created, pending review</StatusPill>;
}
