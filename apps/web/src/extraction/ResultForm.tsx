import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, type InputProblem } from '../api/client';
import { type ExtractionResult, useUpdateResultMutation } from '../api/extraction';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { ProblemList } from '../schemas/ProblemList';
import { type Drafts, draftsOf, isAbout, valuesOf } from './fieldDrafts';
import { ResultCitationsProvider } from './ResultCitations';
import { ResultField } from './ResultField';

interface ResultFormProps {
  orgId: string;
  result: ExtractionResult;
  /** The form's accessible name, e.g. "Invoice fields result". */
  label: string;
  /** The JSON Schema the result follows, when known: it says how each value is edited. */
  schema: unknown;
}

/** A result's values as an editable form, saved as a correction that the server checks against the prompt's schema. */
export function ResultForm({ orgId, result, label, schema }: ResultFormProps) {
  const [drafts, setDrafts] = useState<Drafts>(() => draftsOf(result.updated_llm_result, schema));
  const [localProblems, setLocalProblems] = useState<InputProblem[]>([]);
  const save = useUpdateResultMutation(orgId, result.document_id, result.prompt_revid);
  const verify = useUpdateResultMutation(orgId, result.document_id, result.prompt_revid);

  const serverProblems = save.error instanceof ApiError ? save.error.problems : [];
  const problems = localProblems.length > 0 ? localProblems : serverProblems;
  const names = drafts.map(([name]) => name);
  const otherProblems = problems.filter((problem) => !names.some((name) => isAbout(problem, name)));
  const busy = save.isPending || verify.isPending;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { values, problems: unreadable } = valuesOf(drafts);
    setLocalProblems(unreadable);
    if (unreadable.length > 0) {
      save.reset();
      return;
    }
    save.mutate({ updated_llm_result: values });
  }

  // What the person ticked stands until the server's copy says the same: a poll that started
  // before the change was stored would otherwise flip the box back for a moment.
  const [wantedVerified, setWantedVerified] = useState<boolean | null>(null);
  useEffect(() => {
    if (wantedVerified !== null && (result.is_verified === wantedVerified || verify.isError)) setWantedVerified(null);
  }, [result.is_verified, wantedVerified, verify.isError]);
  const verified = wantedVerified ?? result.is_verified;

  return (
    <form aria-label={label} onSubmit={handleSubmit} noValidate className="space-y-3">
      {drafts.length === 0 && <p className="text-sm text-slate-500">The result has no fields.</p>}
      <ResultCitationsProvider result={result}>
        {drafts.map(([name, draft], index) => (
          <ResultField
            key={name}
            name={name}
            draft={draft}
            disabled={busy}
            problems={problems.filter((problem) => isAbout(problem, name))}
            onChange={(next) => setDrafts((current) => current.map((entry, at) => (at === index ? [name, next] : entry)))}
          />
        ))}
      </ResultCitationsProvider>
      {save.isError && <ErrorAlert title="Could not save the corrections" error={save.error} />}
      {otherProblems.length > 0 && (
        <ProblemList label="Result problems" problems={otherProblems} rootLabel="(the whole result)" />
      )}
      {verify.isError && <ErrorAlert title="Could not change the verification" error={verify.error} />}
      <div className="flex flex-wrap items-center justify-between gap-3 pt-1">
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300"
            checked={verified}
            disabled={busy}
            onChange={(event) => {
              setWantedVerified(event.target.checked);
              verify.mutate({ updated_llm_result: result.updated_llm_result, is_verified: event.target.checked });
            }}
          />
          Verified
        </label>
        {drafts.length > 0 && (
          <Button type="submit" disabled={busy}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
        )}
      </div>
    </form>
  );
}
