import { useState } from 'react';
import { type EvaluationReport, useEvaluationReportsQueries, useEvaluationsQuery } from '../../api/evaluations';
import type { Prompt } from '../../api/prompts';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LoadingState } from '../../components/LoadingState';
import { AccuracyTableView, type DifferenceChoice } from './AccuracyTableView';
import { buildAccuracyTable, evaluatedRevisions } from './accuracyTable';
import { DifferencesList } from './DifferencesList';
import { EvaluateForm } from './EvaluateForm';
import { EvaluationRow } from './EvaluationRow';

/** How many of the latest evaluations are listed. */
const LISTED = 5;

interface EvaluationPanelProps {
  orgId: string;
  promptId: string;
  /** The prompt's versions, newest first. */
  versions: Prompt[];
}

/** The prompt measured on its verified documents: evaluate a version, the evaluations, fields × revisions, what differs. */
export function EvaluationPanel({ orgId, promptId, versions }: EvaluationPanelProps) {
  const evaluationsQuery = useEvaluationsQuery(orgId, promptId);
  const evaluations = evaluationsQuery.data ?? [];
  const columns = evaluatedRevisions(evaluations);
  const listed = evaluations.slice(0, LISTED);
  const ids = [...new Set([...columns, ...listed].map((e) => e.evaluation_id))];
  const reportQueries = useEvaluationReportsQueries(orgId, ids);
  const reports = new Map<string, EvaluationReport>();
  for (const query of reportQueries) if (query.data) reports.set(query.data.evaluation_id, query.data);
  const reportError = reportQueries.find((query) => query.isError)?.error;
  const table = buildAccuracyTable(columns, reports);
  const [choice, setChoice] = useState<DifferenceChoice | null>(null);
  const latestColumn = columns.at(-1)?.evaluation_id;
  const shown: DifferenceChoice | null = choice ?? (latestColumn ? { evaluationId: latestColumn, field: null } : null);
  const shownReport = shown ? reports.get(shown.evaluationId) : undefined;

  return (
    <section aria-label="Evaluation" className="space-y-4">
      <div className="space-y-1">
        <h2 className="text-base font-semibold text-slate-900">Evaluate a version</h2>
        <EvaluateForm orgId={orgId} promptId={promptId} versions={versions} />
      </div>
      {evaluationsQuery.isPending && <LoadingState label="Loading the evaluations…" />}
      {evaluationsQuery.isError && (
        <ErrorAlert
          title="Could not load the evaluations"
          error={evaluationsQuery.error}
          onRetry={() => void evaluationsQuery.refetch()}
        />
      )}
      {reportError && <ErrorAlert title="Could not load an evaluation's report" error={reportError} />}
      {columns.length > 0 && (
        <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,1fr)_16rem]">
          <div className="min-w-0 space-y-4">
            <AccuracyTableView table={table} chosen={shown} onChoose={setChoice} />
            {shownReport && shown && (
              <DifferencesList
                orgId={orgId}
                report={shownReport}
                field={shown.field}
                onChooseField={(field) => setChoice({ evaluationId: shownReport.evaluation_id, field })}
              />
            )}
          </div>
          <div className="space-y-1">
            <h3 className="text-sm font-semibold text-slate-900">Evaluations</h3>
            <ul aria-label="Evaluations" className="divide-y divide-slate-100">
              {listed.map((evaluation) => (
                <EvaluationRow
                  key={evaluation.evaluation_id}
                  orgId={orgId}
                  evaluation={evaluation}
                  report={reports.get(evaluation.evaluation_id)}
                />
              ))}
            </ul>
          </div>
        </div>
      )}
    </section>
  );
}
