import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import { useStartEvaluationMutation } from '../../api/evaluations';
import type { Prompt } from '../../api/prompts';
import { Button } from '../../components/Button';
import { ErrorAlert } from '../../components/ErrorAlert';

interface EvaluateFormProps {
  orgId: string;
  promptId: string;
  /** The prompt's versions, newest first. */
  versions: Prompt[];
}

/** Evaluates a version of the prompt (the latest unless another is chosen) on its verified documents. */
export function EvaluateForm({ orgId, promptId, versions }: EvaluateFormProps) {
  const start = useStartEvaluationMutation(orgId, promptId);
  const [chosen, setChosen] = useState('');
  const latest = versions[0];
  const revid = chosen !== '' && versions.some((v) => v.prompt_revid === chosen) ? chosen : (latest?.prompt_revid ?? '');
  const noVerified = start.error instanceof ApiError && start.error.status === 409;

  function submit(event: FormEvent) {
    event.preventDefault();
    start.mutate(revid || null);
  }

  return (
    <div className="space-y-2">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2 text-sm">
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
          Version to evaluate
          <select
            value={revid}
            onChange={(event) => setChosen(event.target.value)}
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900"
          >
            {versions.map((version) => (
              <option key={version.prompt_revid} value={version.prompt_revid}>
                Version {version.prompt_version}
                {version === latest ? ' (latest)' : ''}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" disabled={start.isPending || revid === ''}>
          {start.isPending ? 'Starting…' : 'Evaluate'}
        </Button>
        <p className="basis-full text-xs text-slate-500">
          Runs the version on every document whose result of this prompt a person verified, and compares its answers with the
          verified ones. It costs a model call per document; the documents' results are not changed.
        </p>
      </form>
      {noVerified ? (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          Nothing to evaluate against yet: no document has a verified result of this prompt. Open a few documents, check their
          results, correct them if needed and mark them verified; they become the evaluation set.
        </p>
      ) : (
        start.isError && <ErrorAlert title="Could not start the evaluation" error={start.error} />
      )}
    </div>
  );
}
