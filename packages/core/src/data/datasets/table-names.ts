import { invalidInput } from '../../errors.ts';

/** Longer names are cut: an identifier people and models read and write, not a file path. */
const MAX_TABLE_NAME = 63;

/**
 * A table name from a file stem or a sheet name: lower-case, every run of characters other than
 * `a-z`, `0-9` and `_` becomes one `_`, a leading digit gets `t_` before it. "Sales 2024.csv" →
 * `sales_2024`; "2024 Q1.xlsx" → `t_2024_q1`; a name with no letter or digit left → `table`.
 */
export function tableNameOf(text: string): string {
  const stem = text.replace(/\.(csv|tsv|txt|xlsx)$/i, '');
  const words = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const named = words === '' ? 'table' : /^[0-9]/.test(words) ? `t_${words}` : words;
  return named.slice(0, MAX_TABLE_NAME).replace(/_+$/, '');
}

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/** A name the caller chose must already be one: it is what SQL and Python will write, so it is not silently changed. */
export function checkTableName(name: string): string {
  if (!TABLE_NAME.test(name) || name.length > MAX_TABLE_NAME) {
    throw invalidInput(
      `"${name.slice(0, 80)}" is not a table name: use lower-case letters, digits and _, starting with a letter or _, at most ${MAX_TABLE_NAME} characters (e.g. "${tableNameOf(name)}").`,
    );
  }
  return name;
}

/** `wanted`, or when a table of the dataset has that name, the first of `wanted_2`, `wanted_3`, ... that is free. */
export function uniqueTableName(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${wanted.slice(0, MAX_TABLE_NAME - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
