import type { UsageTotals } from './usageApi';
import { formatCount, formatUsd } from './usageFormat';

interface UsageTableProps {
  /** The table's accessible name, e.g. "Usage per model". */
  label: string;
  /** The first column's heading. */
  keyHeading: string;
  rows: Array<UsageTotals & { key: string; label: string; mono?: boolean }>;
}

const NUMBER_CELL = 'px-4 py-2 text-right tabular-nums';

/** Calls, tokens and cost, one row for each model or operation, biggest spend first. */
export function UsageTable({ label, keyHeading, rows }: UsageTableProps) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200">
      <table aria-label={label} className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50 text-xs font-medium tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-4 py-2">
              {keyHeading}
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Calls
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Input tokens
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Output tokens
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Cost
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-700">
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row" className={`px-4 py-2 font-medium text-slate-900 ${row.mono ? 'font-mono text-xs' : ''}`}>
                {row.label}
              </th>
              <td className={NUMBER_CELL}>{formatCount(row.calls)}</td>
              <td className={NUMBER_CELL}>
                {formatCount(row.input_tokens)}
                {row.cached_tokens > 0 && (
                  <span className="block text-xs text-slate-500">{formatCount(row.cached_tokens)} cached</span>
                )}
              </td>
              <td className={NUMBER_CELL}>
                {formatCount(row.output_tokens)}
                {row.reasoning_tokens > 0 && (
                  <span className="block text-xs text-slate-500">{formatCount(row.reasoning_tokens)} reasoning</span>
                )}
              </td>
              <td className={NUMBER_CELL}>
                {row.unpriced_calls === row.calls ? (
                  <span title="This model has no price in the price table." className="text-slate-500">
                    No price
                  </span>
                ) : (
                  formatUsd(row.cost_usd)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
