import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { type Dataset, type QueryType, useRunQueryMutation } from '../api/datasets';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { RunView } from './RunView';

const languages: { id: QueryType; label: string; hint: string }[] = [
  { id: 'sql', label: 'SQL', hint: 'One SELECT (WITH … SELECT too) over the tables by their names. Ctrl+Enter runs it.' },
  {
    id: 'python',
    label: 'Python',
    hint: 'Each table is a pandas DataFrame named after it; assign the answer to result_df. Ctrl+Enter runs it.',
  },
];

/** Runs SQL or Python over the dataset now (recorded in its history) and shows the run. */
export function QueryPanel({ orgId, dataset }: { orgId: string; dataset: Dataset }) {
  const baseId = useId();
  const [language, setLanguage] = useState<QueryType>('sql');
  // Null until edited: the example follows the tables as they become ready.
  const [drafts, setDrafts] = useState<Record<QueryType, string | null>>({ sql: null, python: null });
  const runQuery = useRunQueryMutation(orgId, dataset.dataset_id);
  const table = dataset.tables.find((candidate) => candidate.status === 'ready')?.table_name ?? 'my_table';
  const examples: Record<QueryType, string> = {
    sql: `SELECT *\nFROM ${table}\nLIMIT 100`,
    python: `result_df = ${table}.head(100)`,
  };
  const code = drafts[language] ?? examples[language];
  const current = languages.find((candidate) => candidate.id === language) ?? languages[0];

  function run(event?: FormEvent) {
    event?.preventDefault();
    if (code.trim() === '' || runQuery.isPending) return;
    const { dataset_id } = dataset;
    runQuery.mutate(
      language === 'sql' ? { dataset_id, query_type: 'sql', sql: code } : { dataset_id, query_type: 'python', python_code: code },
    );
  }

  function runOnCtrlEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) run(event);
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      <form onSubmit={run} className="shrink-0 space-y-2">
        <div role="tablist" aria-label="Query language" className="flex gap-1 border-b border-slate-200">
          {languages.map((candidate) => (
            <button
              key={candidate.id}
              type="button"
              role="tab"
              id={`${baseId}-${candidate.id}`}
              aria-selected={language === candidate.id}
              aria-controls={`${baseId}-editor`}
              onClick={() => setLanguage(candidate.id)}
              className={`-mb-px border-b-2 px-2 py-1.5 text-sm font-medium ${language === candidate.id ? 'border-slate-900 text-slate-900' : 'border-transparent text-slate-500 hover:text-slate-800'}`}
            >
              {candidate.label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`${baseId}-editor`} aria-labelledby={`${baseId}-${language}`} className="space-y-2">
          <textarea
            aria-label={language === 'sql' ? 'SQL query' : 'Python code'}
            aria-describedby={`${baseId}-hint`}
            rows={5}
            spellCheck={false}
            value={code}
            onChange={(event) => setDrafts((all) => ({ ...all, [language]: event.target.value }))}
            onKeyDown={runOnCtrlEnter}
            className="block w-full resize-y rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs leading-5 text-slate-900 shadow-xs focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
          />
          <div className="flex items-center gap-3">
            <Button type="submit" disabled={runQuery.isPending || code.trim() === ''}>
              {runQuery.isPending ? 'Running…' : 'Run'}
            </Button>
            <p id={`${baseId}-hint`} className="text-xs text-slate-500">
              {current?.hint}
            </p>
          </div>
        </div>
      </form>
      {runQuery.isError && <ErrorAlert title="Could not run the query" error={runQuery.error} />}
      {runQuery.data ? (
        <RunView key={runQuery.data.run_id} run={runQuery.data} />
      ) : (
        <p className="text-sm text-slate-600">
          The result shows here as a table you can sort, chart and download; every run is kept in the history.
        </p>
      )}
    </div>
  );
}
