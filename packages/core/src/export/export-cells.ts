import type { ExportLayout, ExportList } from './export-layout.ts';
import type { ExportedResult } from './export-query.ts';

/** A cell of a CSV or XLSX export: objects and arrays are JSON text. */
export type ExportCell = string | number | boolean | null;

export const LEADING_COLUMNS = ['document_id', 'document_name'] as const;
export const TRAILING_COLUMNS = ['is_verified', 'is_edited', 'model', 'updated_at'] as const;
export const ITEM_KEY_COLUMNS = ['document_id', 'array', 'item_index'] as const;

/** What spreadsheet programs read as the start of a formula (OWASP's list: tab and carriage return too). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell that a spreadsheet would run as a formula gets a leading `'`, which makes it text. */
export const neutralised = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON value as a cell: scalars as they are, anything else as JSON text; text neutralised against formulas. */
export function cellOf(value: unknown): ExportCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  return neutralised(typeof value === 'string' ? value : JSON.stringify(value));
}

function at(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

export const headerOf = (layout: ExportLayout): string[] => [
  ...LEADING_COLUMNS,
  ...layout.columns.map((c) => neutralised(c.header)),
  ...TRAILING_COLUMNS,
];

/** The document's row, in the header's order. */
export const rowOf = (result: ExportedResult, layout: ExportLayout): ExportCell[] => [
  cellOf(result.documentId),
  cellOf(result.documentName),
  ...layout.columns.map((c) => cellOf(at(result.value, c.path))),
  result.isVerified,
  result.isEdited,
  cellOf(result.model),
  result.updatedAt.toISOString(),
];

export const itemHeaderOf = (layout: ExportLayout): string[] => [...ITEM_KEY_COLUMNS, ...layout.itemHeaders.map(neutralised)];

/** The items sheet's rows of one list field of the document's result, numbered from 0 as in the JSON. */
export function itemRowsOf(result: ExportedResult, list: ExportList, layout: ExportLayout): ExportCell[][] {
  const items = at(result.value, [list.key]);
  if (!Array.isArray(items)) return [];
  return items.map((item, index) => {
    const values = new Map<string, ExportCell>(
      list.columns.map((c) => [c.header, cellOf(list.scalarItems ? item : isObject(item) ? item[c.key] : undefined)]),
    );
    return [
      cellOf(result.documentId),
      cellOf(list.key),
      index,
      ...layout.itemHeaders.map((header) => values.get(header) ?? null),
    ];
  });
}
