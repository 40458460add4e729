import type { WorkingExtraction } from '../api/chatStream';
import { usePromptRevisionQuery } from '../api/revisions';
import { TableIcon } from './ControlIcons';
import { ResourceLink } from './ResourceLink';
import { ValuesTable } from './results/ValuesTable';

const inline = (value: unknown) =>
  value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** Extracted values on one line, `name value · name value`, cut at the width it has (all of them in its tooltip). */
export function ExtractionValuesInline({ values }: { values: unknown }) {
  const fields = typeof values === 'object' && values !== null && !Array.isArray(values) ? Object.entries(values) : null;
  if (fields === null) return <p className="truncate">{inline(values)}</p>;
  return (
    <p className="truncate" title={fields.map(([name, value]) => `${name}: ${inline(value)}`).join('\n')}>
      {fields.map(([name, value], index) => (
        <span key={name}>
          {index > 0 && ' · '}
          <span className="font-mono text-slate-500">{name}</span> <span className="text-slate-900">{inline(value)}</span>
        </span>
      ))}
    </p>
  );
}

function fieldsOf(extraction: WorkingExtraction | null): [string, unknown][] | null {
  const values = extraction?.values;
  return typeof values === 'object' && values !== null && !Array.isArray(values) ? Object.entries(values) : null;
}

/** The agent panel's control that shows or hides the current extraction, with its number of fields. */
export function ExtractionToggle({
  extraction,
  open,
  controls,
  onToggle,
}: {
  extraction: WorkingExtraction | null;
  open: boolean;
  controls: string;
  onToggle: () => void;
}) {
  const fields = fieldsOf(extraction);
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={controls}
      title={open ? 'Hide the current extraction' : 'Show the current extraction'}
      onClick={onToggle}
      className={`flex h-8 shrink-0 items-center gap-1 rounded-md border px-2 text-sm focus-visible:outline-2 focus-visible:outline-slate-500 ${open ? 'border-slate-400 bg-slate-100 text-slate-900' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'}`}
    >
      <TableIcon />
      <span className="sr-only">Current extraction</span>
      {fields !== null && <span className="text-xs text-slate-500 tabular-nums">{fields.length}</span>}
    </button>
  );
}

/**
 * The conversation's current extraction, updated as the agent runs a prompt or patches a field: a
 * drawer under the agent panel's controls that stays open while the person goes on chatting. It
 * is capped (and scrolls), so that what is under it and the conversation keep their room.
 */
export function ExtractionDrawer({ orgId, id, extraction }: { orgId: string; id: string; extraction: WorkingExtraction | null }) {
  const promptRevid = extraction?.promptRevid || undefined;
  const prompt = usePromptRevisionQuery(orgId, promptRevid).data;
  return (
    <section
      id={id}
      aria-label="Current extraction"
      className="relative max-h-40 overflow-y-auto overscroll-contain rounded-md border border-slate-200 bg-white px-3 py-2 text-xs text-slate-700"
    >
      {extraction === null ? (
        <p className="text-slate-500">No extraction in this conversation yet.</p>
      ) : (
        <ValuesTable values={extraction.values} label="Current extraction values" />
      )}
      {promptRevid && (
        <p className="mt-2 text-slate-500">
          By prompt{' '}
          <ResourceLink orgId={orgId} href={`prompt:${promptRevid}`}>
            {prompt ? `${prompt.name} (version ${prompt.prompt_version})` : 'of this extraction'}
          </ResourceLink>
        </p>
      )}
    </section>
  );
}
