import { ErrorAlert } from '../components/ErrorAlert';
import { ProblemList } from './ProblemList';
import type { ResponseFormatCheck } from './useResponseFormatCheck';

interface ResponseFormatStatusProps {
  id: string;
  check: ResponseFormatCheck;
}

function syntaxLocation({ line, column }: { line?: number; column?: number }): string {
  return line === undefined ? '' : `Line ${line}, column ${column}: `;
}

/** What the live check says about the draft, announced politely as it changes. */
export function ResponseFormatStatus({ id, check }: ResponseFormatStatusProps) {
  return (
    <div id={id} role="status" aria-live="polite" className="text-sm">
      {check.status === 'checking' && <p className="text-slate-500">Checking the schema…</p>}
      {check.status === 'valid' && <p className="text-emerald-700">The schema is valid.</p>}
      {check.status === 'syntax-error' && (
        <div className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          <p className="font-medium">The JSON cannot be read</p>
          <p>
            {syntaxLocation(check.error)}
            {check.error.message}
          </p>
        </div>
      )}
      {check.status === 'invalid' && (
        <div className="space-y-2 rounded-md border border-red-200 bg-red-50 px-4 py-3">
          <p className="font-medium text-red-800">
            {check.problems.length === 1 ? '1 problem' : `${check.problems.length} problems`} to fix before saving
          </p>
          <ProblemList label="Schema problems" problems={check.problems} />
        </div>
      )}
      {check.status === 'check-failed' && (
        <ErrorAlert title="Could not check the schema" error={check.error} onRetry={check.retry} />
      )}
    </div>
  );
}
