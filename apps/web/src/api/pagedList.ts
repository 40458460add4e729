/** The page and name search of a list of schemas, prompts or tags. */
export interface NameListParams {
  skip: number;
  nameSearch: string;
}

/** How many rows the schemas, prompts and tags lists show per page. */
export const listPageSize = 25;

/** The most one request may list: enough for pickers, since organizations keep few of each. */
export const pickerLimit = 100;

export function nameListSearch({ skip, nameSearch }: NameListParams, limit = listPageSize): URLSearchParams {
  const search = new URLSearchParams({ skip: String(skip), limit: String(limit) });
  if (nameSearch !== '') {
    search.set('name_search', nameSearch);
  }
  return search;
}
