import { storableText } from '../../db/storable-text.ts';
import type { LatestResult } from './result-sources.ts';
import type { ColumnType, FieldColumn, ListTable, ResultTableLayout } from './result-table-layout.ts';

type Cell = string | number | boolean | null;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: string) => storableText(value).text;

function numberOf(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/** `YYYY-MM-DD` of a date that exists (the start of an ISO date-time included); null otherwise. */
function dateOf(value: unknown): string | null {
  const match = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(value.trim()) : null;
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const exists = year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/**
 * The value as its column's type, so that DuckDB reads every row: a result of an older revision
 * may hold another type than the latest schema says, and what does not fit is NULL rather than a
 * table that cannot be made. Text columns hold strings as they are and anything else as JSON.
 */
export function cellOf(value: unknown, type: ColumnType): Cell {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'VARCHAR':
      return text(typeof value === 'string' ? value : JSON.stringify(value));
    case 'DOUBLE':
      return numberOf(value);
    case 'BIGINT': {
      const n = numberOf(value);
      return n !== null && Number.isInteger(n) ? n : null;
    }
    case 'BOOLEAN':
      if (typeof value === 'boolean') return value;
      return value === 'true' ? true : value === 'false' ? false : null;
    case 'DATE':
      return dateOf(value);
  }
}

function cells(source: Record<string, unknown>, columns: FieldColumn[]): Record<string, Cell> {
  return Object.fromEntries(columns.map((c) => [c.name, cellOf(source[c.key], c.type)]));
}

/** The document's row of the prompt's table. A result that is not a JSON object has only its document's columns. */
export function parentRow(result: LatestResult, layout: ResultTableLayout): Record<string, Cell> {
  const value = isObject(result.value) ? result.value : {};
  return { document_id: result.documentId, document_name: text(result.documentName), ...cells(value, layout.columns) };
}

/** The rows of one list field of the document's result, an item a row, numbered from 0 as in the JSON. */
export function listRows(result: LatestResult, list: ListTable): Array<Record<string, Cell>> {
  const items = isObject(result.value) ? result.value[list.key] : undefined;
  if (!Array.isArray(items)) return [];
  return items.map((item, index) => {
    const [only] = list.columns;
    const values =
      list.scalarItems && only ? { [only.name]: cellOf(item, only.type) } : cells(isObject(item) ? item : {}, list.columns);
    return { document_id: result.documentId, item_index: index, ...values };
  });
}
