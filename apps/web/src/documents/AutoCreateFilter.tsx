import { useId } from 'react';
import { AUTO_CREATE_STATUSES, type AutoCreateStatus, parseAutoCreateStatus } from '../api/types';
import { autoCreateLabels } from './AutoCreateBadge';

interface AutoCreateFilterProps {
  value: AutoCreateStatus | null;
  onChange: (status: AutoCreateStatus | null) => void;
}

/** Narrows the documents to one auto-create status, e.g. the proposals waiting for review. */
export function AutoCreateFilter({ value, onChange }: AutoCreateFilterProps) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-slate-700">
        Auto-create
      </label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(event) => onChange(parseAutoCreateStatus(event.target.value))}
        className="rounded-md border border-slate-300 bg-white py-1.5 pr-8 pl-2 text-sm text-slate-900 shadow-xs focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
      >
        <option value="">Any</option>
        {AUTO_CREATE_STATUSES.map((status) => (
          <option key={status} value={status}>
            {autoCreateLabels[status]}
          </option>
        ))}
      </select>
    </div>
  );
}
