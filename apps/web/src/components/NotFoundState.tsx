import { Link } from 'react-router';
import { EmptyState } from './EmptyState';

interface NotFoundStateProps {
  /** What was looked for, e.g. "Schema". */
  what: string;
  backTo: string;
  backLabel: string;
}

export function NotFoundState({ what, backTo, backLabel }: NotFoundStateProps) {
  return (
    <EmptyState
      title={`${what} not found`}
      description={`This ${what.toLowerCase()} does not exist any more, or it belongs to another organization.`}
    >
      <Link to={backTo} className="text-sm font-medium text-slate-900 underline">
        {backLabel}
      </Link>
    </EmptyState>
  );
}
