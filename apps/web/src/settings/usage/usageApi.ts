import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getJson } from '../../api/client';
import { orgApiPath } from '../../api/queries';

export interface UsageTotals {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  /** Over the calls whose model has a price. */
  cost_usd: number;
  /** Calls of models with no price: not in cost_usd. */
  unpriced_calls: number;
}

export interface MonthlyUsage {
  month: string;
  totals: UsageTotals;
  by_model: Array<UsageTotals & { model: string }>;
  by_operation: Array<UsageTotals & { operation: string }>;
}

/** Admins only: the server answers 403 to others. */
export function useUsageQuery(orgId: string, month: string) {
  return useQuery({
    queryKey: ['orgs', orgId, 'usage', month],
    queryFn: () => getJson<MonthlyUsage>(`${orgApiPath(orgId)}/usage?month=${encodeURIComponent(month)}`),
    // The month shown stays while the next one loads, so that the page does not jump.
    placeholderData: keepPreviousData,
  });
}
