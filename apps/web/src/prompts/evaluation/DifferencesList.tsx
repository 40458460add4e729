import { Link } from 'react-router';
import type { EvaluationReport } from '../../api/evaluations';
import { documentFieldPath } from '../../layout/orgPaths';
import { shownValue } from './accuracyTable';

interface DifferencesListProps {
  orgId: string;
  report: EvaluationReport;
  /** Only this field's differences; null: all of them. */
  field: string | null;
  onChooseField: (field: string | null) => void;
}

/** Where a revision's answers differ from the verified results, each linking to its document with the field focused. */
export function DifferencesList({ orgId, report, field, onChooseField }: DifferencesListProps) {
  const shown = report.differences.filter((d) => field === null || d.field === field);
  const title = `${field === null ? 'All differences' : `Differences in ${field}`} · version ${report.prompt_version}`;
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
        {field !== null && (
          <button type="button" className="text-xs text-slate-600 underline" onClick={() => onChooseField(null)}>
            Show all fields
          </button>
        )}
      </div>
      {shown.length === 0 ? (
        <p className="text-sm text-slate-500">
          {report.accuracy.documents === 0 ? 'No document answered yet.' : 'None: every answer agrees with the verified result.'}
        </p>
      ) : (
        <ul aria-label="Differences" className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm">
          {shown.map((d) => (
            <li key={`${d.document_id}/${d.path}`} className="grid gap-x-4 gap-y-0.5 px-3 py-2 sm:grid-cols-[12rem_1fr]">
              <div className="min-w-0">
                <Link
                  to={documentFieldPath(orgId, d.document_id, d.path, report.prompt_revid)}
                  className="block truncate font-medium text-slate-900 underline"
                  title={d.document_name}
                >
                  {d.document_name}
                </Link>
                <button
                  type="button"
                  className="font-mono text-xs text-slate-600 hover:underline"
                  onClick={() => onChooseField(d.field)}
                  title={`Only the differences in ${d.field}`}
                >
                  {d.path}
                </button>
              </div>
              <dl className="grid min-w-0 grid-cols-[5rem_1fr] gap-x-2 text-xs">
                <dt className="text-slate-500">Expected</dt>
                <dd className="break-words text-emerald-800">{shownValue(d.expected)}</dd>
                <dt className="text-slate-500">Answered</dt>
                <dd className="break-words text-red-800">{shownValue(d.actual)}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
