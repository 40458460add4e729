import { useEffect } from 'react';

interface ClampedSkipOptions {
  skip: number;
  pageSize: number;
  /** Unknown while the first page loads. */
  total: number | undefined;
  /** True while an older page is shown for the one that is loading. */
  isPlaceholder: boolean;
  onClamp: (skip: number) => void;
}

/** Deleting the last row of the last page, or an old link, can leave a list past its end: this moves back to its last page. */
export function useClampedSkip({ skip, pageSize, total, isPlaceholder, onClamp }: ClampedSkipOptions): void {
  const lastPageSkip = total === undefined ? 0 : Math.max(0, Math.ceil(total / pageSize) - 1) * pageSize;
  const isPastEnd = total !== undefined && !isPlaceholder && skip > lastPageSkip;
  useEffect(() => {
    if (isPastEnd) {
      onClamp(lastPageSkip);
    }
  });
}
