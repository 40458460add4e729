import { type ReactNode, useId } from 'react';
import { CitationMarks } from './CitationMarks';
import { useCitedField } from './ResultCitations';

/** The outline of the field whose boxes the viewer shows. */
export const activeFieldClass = 'rounded-sm outline-2 outline-offset-2 outline-amber-500';

interface CitedValueProps {
  /** The value's citation path. */
  path: string;
  className?: string;
  /** Renders the value's input, given the id of its marks to describe it by (when it has any). */
  children: (marksId: string | undefined) => ReactNode;
}

/** A list item's or a table cell's value: shows its citation in the viewer when pointed at, with its marks under it. */
export function CitedValue({ path, className = '', children }: CitedValueProps) {
  const cited = useCitedField(path);
  const marksId = useId();
  const marked = cited.review || cited.notFound;
  return (
    <div {...cited.target} className={`${className} ${cited.active ? activeFieldClass : ''}`}>
      {children(marked ? marksId : undefined)}
      {marked && (
        <div className="mt-1">
          <CitationMarks
            id={marksId}
            review={cited.review}
            notFound={cited.notFound}
            confidence={cited.citation?.confidence}
            probability={cited.citation?.probability}
            compact
          />
        </div>
      )}
    </div>
  );
}
