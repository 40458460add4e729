/** A value of a result that can be looked for on the pages: a string or a number, with where it is. */
export interface LeafValue {
  /** Dotted JSON path with [i] for array elements: "total", "line_items[2].amount", "parties[0]". */
  path: string;
  value: string | number;
  /** The last key on the path ("amount" for "line_items[2].amount", "parties" for "parties[0]"), as words. */
  label: string[];
}

/** "invoiceNumber", "invoice_number" and "invoice-number" are the words "invoice number". */
export function labelWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** The path of a key or an array index under `parent` ('' is the root). */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (parent === '') return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * The strings and numbers of a result, in document order (the order of its keys), depth first.
 * Nulls, empty strings and booleans are left out: there is nothing to point at for them.
 */
export function leafValues(result: Record<string, unknown>): LeafValue[] {
  const leaves: LeafValue[] = [];
  const visit = (value: unknown, path: string, key: string): void => {
    if (typeof value === 'string') {
      if (value.trim() !== '') leaves.push({ path, value, label: labelWords(key) });
    } else if (typeof value === 'number') {
      if (Number.isFinite(value)) leaves.push({ path, value, label: labelWords(key) });
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(item, childPath(path, i), key);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, childPath(path, k), k);
    }
  };
  for (const [k, v] of Object.entries(result)) visit(v, childPath('', k), k);
  return leaves;
}
