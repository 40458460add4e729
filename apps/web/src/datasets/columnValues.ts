/** How the grids, the chart and the downloads read DuckDB's columns and the JSON values of their cells. */

type ColumnKind = 'number' | 'date' | 'boolean' | 'text';

const NUMBER_TYPE = /^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|FLOAT|DOUBLE|REAL|DECIMAL|NUMERIC)\b/;

/** The kind of a DuckDB type name: BIGINT and DECIMAL(10,2) are numbers, DATE and TIMESTAMP dates. */
export function columnKind(type: string): ColumnKind {
  const upper = type.toUpperCase();
  if (NUMBER_TYPE.test(upper)) return 'number';
  if (upper.startsWith('DATE') || upper.startsWith('TIMESTAMP') || upper.startsWith('TIME')) return 'date';
  if (upper === 'BOOLEAN') return 'boolean';
  return 'text';
}

/** A grid column's width in pixels: fixed, so that the header and every row line up without measuring. */
export function columnWidth(type: string): number {
  const kind = columnKind(type);
  if (kind === 'boolean') return 96;
  if (kind === 'number') return 128;
  if (kind === 'date') return type.toUpperCase().startsWith('TIMESTAMP') ? 184 : 128;
  return 208;
}

/** A cell as text: lists and structs as JSON, null as the empty string. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A value as a number for the chart; large integers come as text from the server. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Orders two cells: numbers by value, the rest as text with digits read as numbers; empty cells last. */
export function compareCells(a: unknown, b: unknown): number {
  const aEmpty = a === null || a === undefined;
  const bEmpty = b === null || b === undefined;
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(cellText(a), cellText(b));
}
