import { type Evaluation, type EvaluationReport, useCancelEvaluationMutation } from '../../api/evaluations';
import { ErrorAlert } from '../../components/ErrorAlert';
import { percent } from './accuracyTable';

const smallButton =
  'rounded border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

interface EvaluationRowProps {
  orgId: string;
  evaluation: Evaluation;
  report: EvaluationReport | undefined;
}

/** One evaluation: its version, progress, overall accuracy so far, and cancel while it runs. */
export function EvaluationRow({ orgId, evaluation, report }: EvaluationRowProps) {
  const cancel = useCancelEvaluationMutation(orgId, evaluation.prompt_id);
  const current = report ?? evaluation;
  const { counts } = current;
  const done = counts.succeeded + counts.failed + counts.cancelled;
  const overall = report?.accuracy.overall ?? null;
  const when = new Date(evaluation.created_at).toLocaleString();
  return (
    <li className="space-y-1 py-2 text-xs">
      <div className="flex items-center justify-between gap-2">
        <span className="font-medium text-slate-800">
          Version {evaluation.prompt_version} <span className="font-normal text-slate-500">· {when}</span>
        </span>
        <span className="shrink-0 text-slate-500">{current.status}</span>
      </div>
      {current.status === 'running' && (
        <progress
          className="h-1.5 w-full"
          max={counts.total}
          value={done}
          aria-label={`Progress of the evaluation of version ${evaluation.prompt_version}`}
        />
      )}
      <p className="text-slate-600">
        {done} of {counts.total} documents · {overall === null ? 'no accuracy yet' : `${percent(overall)} correct`}
        {report && !report.accuracy.complete && overall !== null ? ' so far' : ''}
        {counts.failed > 0 ? ` · ${counts.failed} failed` : ''}
        {counts.cancelled > 0 ? ` · ${counts.cancelled} cancelled` : ''}
      </p>
      {current.status === 'running' && (
        <button
          type="button"
          className={smallButton}
          disabled={cancel.isPending}
          onClick={() => cancel.mutate(evaluation.evaluation_id)}
        >
          Cancel
        </button>
      )}
      {cancel.isError && <ErrorAlert title="Could not cancel the evaluation" error={cancel.error} />}
    </li>
  );
}
