import { useState } from 'react';
import { useStartBatchMutation } from '../api/batches';
import { errorMessage } from '../api/client';
import { type BulkAction, type BulkOutcome, exportDocuments, useBulkActionMutation } from '../api/documentBulk';
import { usePromptChoicesQuery } from '../api/prompts';
import { type Tag, useTagsQuery } from '../api/tags';
import type { DocumentSummary } from '../api/types';
import { Button } from '../components/Button';
import { BulkPromptRun } from './BulkPromptRun';

const selectClass =
  'rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 text-sm text-slate-800 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none disabled:opacity-60';

const verbs: Record<BulkAction['kind'], string> = {
  addTag: 'Tagged',
  removeTag: 'Untagged',
  delete: 'Deleted',
};

function describe(kind: BulkAction['kind'], outcome: BulkOutcome): string {
  const done = `${verbs[kind]} ${outcome.done} document${outcome.done === 1 ? '' : 's'}.`;
  if (outcome.failed.length === 0) return done;
  const failures = outcome.failed.map((f) => `${f.name}: ${f.error}`).join(' ');
  return `${done} ${outcome.failed.length} failed: ${failures}`;
}

interface TagActionSelectProps {
  label: string;
  placeholder: string;
  tags: Tag[];
  disabled: boolean;
  onPick: (tagId: string) => void;
}

/** A tag chosen from the list is the action: the select springs back to its placeholder. */
function TagActionSelect({ label, placeholder, tags, disabled, onPick }: TagActionSelectProps) {
  return (
    <select
      aria-label={label}
      className={selectClass}
      value=""
      disabled={disabled || tags.length === 0}
      onChange={(event) => onPick(event.target.value)}
    >
      <option value="">{placeholder}</option>
      {tags.map((tag) => (
        <option key={tag.id} value={tag.id}>
          {tag.name}
        </option>
      ))}
    </select>
  );
}

interface BulkActionsBarProps {
  orgId: string;
  selected: DocumentSummary[];
  onClear: () => void;
}

/** What can be done to the chosen documents at once: tag, untag, run a prompt, export, delete. */
export function BulkActionsBar({ orgId, selected, onClear }: BulkActionsBarProps) {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [report, setReport] = useState<string | null>(null);
  const tags = useTagsQuery(orgId);
  const prompts = usePromptChoicesQuery(orgId);
  const bulk = useBulkActionMutation(orgId, (done, total) => setProgress({ done, total }));
  const [promptRun, setPromptRun] = useState<{ promptId: string; batchId: string } | null>(null);
  const startRun = useStartBatchMutation(orgId);
  const busy = bulk.isPending || progress !== null || startRun.isPending;

  function runPrompt(promptRevid: string) {
    const prompt = prompts.data?.find((p) => p.prompt_revid === promptRevid);
    if (!prompt) return;
    setReport(null);
    setPromptRun(null);
    startRun.mutate(
      { promptId: prompt.prompt_id, prompt_revid: prompt.prompt_revid, document_ids: selected.map((d) => d.id) },
      {
        onSuccess: (batch) => setPromptRun({ promptId: batch.prompt_id, batchId: batch.batch_id }),
        onError: (error) => setReport(`The prompt could not start: ${errorMessage(error)}`),
      },
    );
  }

  function run(action: BulkAction) {
    setReport(null);
    setProgress({ done: 0, total: selected.length });
    bulk.mutate(
      { action, documents: selected },
      {
        onSuccess: (outcome) => {
          setReport(describe(action.kind, outcome));
          if (action.kind === 'delete') onClear();
        },
        onError: (error) => setReport(errorMessage(error)),
        onSettled: () => setProgress(null),
      },
    );
  }

  async function download() {
    setReport(null);
    try {
      const blob = await exportDocuments(orgId, selected);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `documents-${new Date().toISOString().slice(0, 10)}.json`;
      link.click();
      URL.revokeObjectURL(link.href);
      setReport(`Exported ${selected.length} document${selected.length === 1 ? '' : 's'} with their extraction results.`);
    } catch (error) {
      setReport(`The export failed: ${errorMessage(error)}`);
    }
  }

  function confirmDelete() {
    const names = selected.map((d) => `“${d.document_name}”`).join(', ');
    if (window.confirm(`Delete ${selected.length} document(s): ${names}? Their files and text will be removed for good.`)) {
      run({ kind: 'delete' });
    }
  }

  const tagList = tags.data?.tags ?? [];
  return (
    <div
      role="toolbar"
      aria-label="Actions on the chosen documents"
      className="flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm"
    >
      <span className="font-medium text-indigo-950">{selected.length} chosen</span>
      <TagActionSelect
        label="Add a tag to the chosen documents"
        placeholder="Add tag…"
        tags={tagList}
        disabled={busy}
        onPick={(tagId) => run({ kind: 'addTag', tagId })}
      />
      <TagActionSelect
        label="Remove a tag from the chosen documents"
        placeholder="Remove tag…"
        tags={tagList}
        disabled={busy}
        onPick={(tagId) => run({ kind: 'removeTag', tagId })}
      />
      <select
        aria-label="Run a prompt on the chosen documents"
        className={selectClass}
        value=""
        disabled={busy || !prompts.data}
        onChange={(event) => runPrompt(event.target.value)}
      >
        <option value="">Run prompt…</option>
        {(prompts.data ?? []).map((prompt) => (
          <option key={prompt.prompt_revid} value={prompt.prompt_revid}>
            {prompt.name}
          </option>
        ))}
      </select>
      <Button variant="secondary" className="px-2.5 py-1" disabled={busy} onClick={() => void download()}>
        Export
      </Button>
      <Button variant="danger" className="px-2.5 py-1" disabled={busy} onClick={confirmDelete}>
        Delete
      </Button>
      <Button variant="secondary" className="px-2.5 py-1" disabled={busy} onClick={onClear}>
        Clear choice
      </Button>
      <span role="status" className="basis-full text-xs text-indigo-950 empty:hidden">
        {progress ? `Working: ${progress.done} of ${progress.total}…` : (report ?? '')}
      </span>
      {promptRun && (
        <div className="basis-full">
          <BulkPromptRun orgId={orgId} {...promptRun} />
        </div>
      )}
    </div>
  );
}
