import { Link } from 'react-router';
import { EmptyState } from '../components/EmptyState';

export function NotFoundPage() {
  return (
    <EmptyState title="Page not found" description="There is nothing at this address.">
      <Link to="/" className="text-sm font-medium text-slate-900 underline">
        Go to your documents
      </Link>
    </EmptyState>
  );
}
