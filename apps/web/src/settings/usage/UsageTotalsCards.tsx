import type { UsageTotals } from './usageApi';
import { formatCount, formatUsd } from './usageFormat';

function Figure({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="rounded-md border border-slate-200 px-4 py-3">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-xl font-semibold text-slate-900 tabular-nums">{value}</dd>
      {detail && <dd className="text-xs text-slate-500">{detail}</dd>}
    </div>
  );
}

/** The month at a glance: what it cost, how many calls, how many tokens each way. */
export function UsageTotalsCards({ totals }: { totals: UsageTotals }) {
  return (
    <div className="space-y-2">
      <dl aria-label="Totals" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure label="Spend" value={formatUsd(totals.cost_usd)} detail="Estimated from list prices" />
        <Figure label="LLM calls" value={formatCount(totals.calls)} />
        <Figure
          label="Input tokens"
          value={formatCount(totals.input_tokens)}
          detail={totals.cached_tokens > 0 ? `${formatCount(totals.cached_tokens)} from the prompt cache` : undefined}
        />
        <Figure
          label="Output tokens"
          value={formatCount(totals.output_tokens)}
          detail={totals.reasoning_tokens > 0 ? `${formatCount(totals.reasoning_tokens)} of reasoning` : undefined}
        />
      </dl>
      {totals.unpriced_calls > 0 && (
        <p role="note" className="text-xs text-slate-600">
          {formatCount(totals.unpriced_calls)} {totals.unpriced_calls === 1 ? 'call' : 'calls'} of models with no price in the
          price table {totals.unpriced_calls === 1 ? 'is' : 'are'} not in the spend.
        </p>
      )}
    </div>
  );
}
