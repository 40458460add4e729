/**
 * Citation paths, as the server writes them (core's grounding/leaf-values.ts childPath): keys
 * joined with dots, array items as `[i]`, a key that is no identifier in brackets as JSON
 * ("total", "line_items[2].amount", "parties[0]", `["Invoice No"]`). The form builds the same
 * paths as it walks a result, so that a field finds its citation and a cited box finds its field.
 */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The path of `key` inside the object at `parent` ('' for the result itself). */
export function keyPath(parent: string, key: string): string {
  if (!IDENTIFIER.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** The path of item `index` of the array at `parent`. */
export function itemPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** Whether `path` is `prefix` itself or something inside it ("items[1].name" is within "items" and "items[1]"). */
export function isWithin(path: string, prefix: string): boolean {
  if (path === prefix) return true;
  if (!path.startsWith(prefix)) return false;
  const next = path[prefix.length];
  return next === '.' || next === '[';
}
