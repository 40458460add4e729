import { keepPreviousData, type Query, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, postJson } from './client';
import { type NameListParams, nameListSearch, pickerLimit } from './pagedList';
import { orgApiPath } from './queries';

/** How often a dataset with a table still being read in is read again. */
const pendingPollMs = 2000;

export interface Column {
  name: string;
  /** DuckDB's type: BIGINT, DOUBLE, VARCHAR, DATE, ... */
  type: string;
}

export type TableStatus = 'pending' | 'ready' | 'failed';

export interface DatasetTable {
  table_id: string;
  /** The name SQL and Python use. */
  table_name: string;
  document_id: string | null;
  sheet_name: string | null;
  status: TableStatus;
  error: string | null;
  row_count: number;
  skipped_rows: number;
  columns: Column[];
  created_at: string;
  updated_at: string;
}

export interface Dataset {
  /** `extractions` for the built-in dataset. */
  dataset_id: string;
  name: string;
  /** The extraction results as tables, kept up to date by the server: not renamed, deleted or given tables. */
  built_in: boolean;
  description: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  tables: DatasetTable[];
}

interface DatasetList {
  datasets: Dataset[];
  total_count: number;
  skip: number;
}

interface TableRowsPage {
  table_name: string;
  columns: Column[];
  rows: unknown[][];
  offset: number;
  total_count: number;
}

export type QueryType = 'sql' | 'python';
export type RunStatus = 'succeeded' | 'failed' | 'rejected';

export interface RunResult {
  columns: Column[];
  rows: unknown[][];
  /** Rows the query produced, also past the cap when known. */
  row_count: number;
  exec_time_ms: number;
  truncated: 'rows' | 'bytes' | null;
}

interface RunFields {
  run_id: string;
  dataset_id: string;
  question: string | null;
  query_mode: 'sql' | 'plan' | 'python' | 'chat';
  compiled_sql: string | null;
  python_code: string | null;
  status: RunStatus;
  error: { code: string; message: string } | null;
  created_at: string;
}

export interface DataRun extends RunFields {
  result: RunResult | null;
}

export interface DataRunSummary extends RunFields {
  row_count: number | null;
  exec_time_ms: number | null;
}

interface RunList {
  runs: DataRunSummary[];
  total_count: number;
  skip: number;
}

export const runsPageSize = 20;

/** Rows of a table the preview asks for at once (the server gives at most 500). */
export const rowsPageSize = 200;

function datasetsQueryKey(orgId: string) {
  return ['orgs', orgId, 'datasets'] as const;
}

function runsQueryKey(orgId: string, datasetId: string) {
  return ['orgs', orgId, 'runs', datasetId] as const;
}

function datasetsPath(orgId: string): string {
  return `${orgApiPath(orgId)}/datasets`;
}

function datasetPath(orgId: string, datasetId: string): string {
  return `${datasetsPath(orgId)}/${encodeURIComponent(datasetId)}`;
}

const hasPendingTable = (dataset: Dataset) => dataset.tables.some((table) => table.status === 'pending');

export function useDatasetsQuery(orgId: string, params: NameListParams) {
  return useQuery({
    queryKey: [...datasetsQueryKey(orgId), 'page', params],
    queryFn: () => getJson<DatasetList>(`${datasetsPath(orgId)}?${nameListSearch(params)}`),
    placeholderData: keepPreviousData,
    refetchInterval: (query: Query<DatasetList>) => (query.state.data?.datasets.some(hasPendingTable) ? pendingPollMs : false),
  });
}

/** The newest 100 datasets, for choosing where an upload goes. */
export function useDatasetChoicesQuery(orgId: string) {
  return useQuery({
    queryKey: [...datasetsQueryKey(orgId), 'choices'],
    queryFn: () => getJson<DatasetList>(`${datasetsPath(orgId)}?limit=${pickerLimit}`),
    select: ({ datasets }) => datasets,
  });
}

/** One dataset, read again while one of its tables is being read in. */
export function useDatasetQuery(orgId: string, datasetId: string) {
  return useQuery({
    queryKey: [...datasetsQueryKey(orgId), 'detail', datasetId],
    queryFn: () => getJson<Dataset>(datasetPath(orgId, datasetId)),
    refetchInterval: (query: Query<Dataset>) => (query.state.data && hasPendingTable(query.state.data) ? pendingPollMs : false),
  });
}

export function useRefreshDatasets(orgId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: datasetsQueryKey(orgId) });
}

export function useCreateDatasetMutation(orgId: string) {
  const refresh = useRefreshDatasets(orgId);
  return useMutation({
    mutationFn: (body: { name: string; description?: string }) => postJson<Dataset>(datasetsPath(orgId), { body }),
    onSuccess: refresh,
  });
}

export function useDeleteDatasetMutation(orgId: string) {
  const refresh = useRefreshDatasets(orgId);
  return useMutation({
    mutationFn: (datasetId: string) => deleteNoContent(datasetPath(orgId, datasetId)),
    onSuccess: refresh,
  });
}

export function tableRowsQueryKey(orgId: string, datasetId: string, tableName: string, page: number) {
  // Apart from the datasets' key: refreshing a dataset must not read its unchanging rows again.
  return ['orgs', orgId, 'dataset-rows', datasetId, tableName, page] as const;
}

/** One page of a table's rows: `rowsPageSize` rows from `page * rowsPageSize`. */
export function fetchTableRows(orgId: string, datasetId: string, tableName: string, page: number): Promise<TableRowsPage> {
  const search = new URLSearchParams({ offset: String(page * rowsPageSize), limit: String(rowsPageSize) });
  return getJson<TableRowsPage>(`${datasetPath(orgId, datasetId)}/tables/${encodeURIComponent(tableName)}/rows?${search}`);
}

type RunRequest = { dataset_id: string } & ({ query_type: 'sql'; sql: string } | { query_type: 'python'; python_code: string });

/** Runs a query now; the answer is the recorded run, whatever its outcome. */
export function useRunQueryMutation(orgId: string, datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RunRequest) => postJson<DataRun>(`${orgApiPath(orgId)}/runs`, { body }),
    onSuccess: (run) => {
      queryClient.setQueryData([...runsQueryKey(orgId, datasetId), 'detail', run.run_id], run);
      return queryClient.invalidateQueries({ queryKey: [...runsQueryKey(orgId, datasetId), 'page'] });
    },
  });
}

export function useDatasetRunsQuery(orgId: string, datasetId: string, skip: number) {
  return useQuery({
    queryKey: [...runsQueryKey(orgId, datasetId), 'page', skip],
    queryFn: () => {
      const search = new URLSearchParams({ dataset_id: datasetId, skip: String(skip), limit: String(runsPageSize) });
      return getJson<RunList>(`${orgApiPath(orgId)}/runs?${search}`);
    },
    placeholderData: keepPreviousData,
  });
}

/** A run with its result; a finished run never changes. */
export function useDataRunQuery(orgId: string, datasetId: string, runId: string) {
  return useQuery({
    queryKey: [...runsQueryKey(orgId, datasetId), 'detail', runId],
    queryFn: () => getJson<DataRun>(`${orgApiPath(orgId)}/runs/${encodeURIComponent(runId)}`),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
