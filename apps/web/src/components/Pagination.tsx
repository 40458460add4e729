import { Button } from './Button';

interface PaginationProps {
  /** What the pages are of, for screen readers: "Pages of documents". */
  label: string;
  skip: number;
  pageSize: number;
  /** Rows on the current page. */
  shown: number;
  total: number;
  onSkipChange: (skip: number) => void;
}

export function Pagination({ label, skip, pageSize, shown, total, onSkipChange }: PaginationProps) {
  const first = shown === 0 ? 0 : skip + 1;
  const last = skip + shown;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-4 text-sm text-slate-600">
      <p>
        {first}–{last} of {total}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={skip === 0} onClick={() => onSkipChange(Math.max(0, skip - pageSize))}>
          Previous
        </Button>
        <Button variant="secondary" disabled={last >= total} onClick={() => onSkipChange(skip + pageSize)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
