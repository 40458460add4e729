import { type InvalidateOptions, type InvalidateQueryFilters, type Query, QueryClient } from '@tanstack/react-query';

const firstFetchInFlight = (query: Query) => query.state.data === undefined && query.state.fetchStatus === 'fetching';

/**
 * A QueryClient whose invalidation after a write always reads again. TanStack Query cancels a
 * fetch in flight and starts another only when the query already has data; a first fetch still in
 * flight is kept instead (TanStack/query#8530), and its answer, read before the write, then stays:
 * a token created while the tokens list was still loading never appeared in it. Such a first fetch
 * is cancelled here before the invalidation. Only queries a component watches: a one-off fetchQuery
 * would be cancelled under its caller.
 */
export class FreshAfterWriteQueryClient extends QueryClient {
  override async invalidateQueries(filters?: InvalidateQueryFilters, options?: InvalidateOptions): Promise<void> {
    await this.cancelQueries({
      ...filters,
      type: 'active',
      predicate: (query) => firstFetchInFlight(query) && (filters?.predicate?.(query) ?? true),
    });
    return super.invalidateQueries(filters, options);
  }
}
