import { useSearchParams } from 'react-router';

export type DatasetTab = 'preview' | 'query' | 'history';

const TABS: DatasetTab[] = ['preview', 'query', 'history'];

interface DatasetView {
  tab: DatasetTab;
  /** The table previewed; null: the first. */
  table: string | null;
  /** The run opened in the history. */
  run: string | null;
}

/** What the dataset page shows, kept in the URL so that a reload or a shared link opens the same table or run. */
export function useDatasetView() {
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = searchParams.get('tab');
  const view: DatasetView = {
    tab: TABS.find((tab) => tab === asked) ?? 'preview',
    table: searchParams.get('table'),
    run: searchParams.get('run'),
  };

  function update(changes: Partial<DatasetView>) {
    const next = { ...view, ...changes };
    const search = new URLSearchParams();
    if (next.tab !== 'preview') search.set('tab', next.tab);
    if (next.table) search.set('table', next.table);
    if (next.run) search.set('run', next.run);
    setSearchParams(search, { replace: true });
  }

  return { view, update };
}
