import { promptResultsExportUrl, type ResultsExportFormat } from '../api/prompts';
import { Popover } from '../components/Popover';

const FORMATS: Array<{ format: ResultsExportFormat; label: string; hint: string }> = [
  { format: 'csv', label: 'CSV', hint: 'nested lists as JSON text' },
  { format: 'xlsx', label: 'XLSX', hint: 'list items on a second sheet' },
  { format: 'json', label: 'JSON', hint: 'the results as stored' },
];

/** Downloads of the prompt's results over its documents, one row per document. */
export function ExportMenu({ orgId, promptId }: { orgId: string; promptId: string }) {
  return (
    <div className="relative">
      <Popover
        title="Export results"
        summary="Export"
        summaryClassName="border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
        panelClassName="right-0 mt-1 w-64 p-1"
      >
        {(close) => (
          <ul className="space-y-0.5">
            {FORMATS.map(({ format, label, hint }) => (
              <li key={format}>
                <a
                  href={promptResultsExportUrl(orgId, promptId, format)}
                  download
                  onClick={close}
                  className="flex items-baseline justify-between gap-2 rounded px-2 py-1.5 text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-slate-500"
                >
                  {label}
                  <span className="text-xs text-slate-500">{hint}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </Popover>
    </div>
  );
}
