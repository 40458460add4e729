/**
 * Citation paths, as the server writes them: keys joined with dots, array items as `[i]`
 * ("total", "line_items[2].amount", "parties[0]"). The form builds the same paths as it walks
 * a result, so that a field finds its citation and a cited box finds its field.
 */

/** The path of `key` inside the object at `parent` ('' for the result itself). */
export function keyPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/** The path of item `index` of the array at `parent`. */
export function itemPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** A path's steps: keys as strings, array indexes as numbers. */
export function pathSteps(path: string): (string | number)[] {
  const steps: (string | number)[] = [];
  for (const part of path.split('.')) {
    const bracket = part.indexOf('[');
    const key = bracket === -1 ? part : part.slice(0, bracket);
    if (key !== '') steps.push(key);
    if (bracket !== -1) {
      for (const match of part.slice(bracket).matchAll(/\[(\d+)\]/g)) steps.push(Number(match[1]));
    }
  }
  return steps;
}

/** The path of a list of steps, the inverse of `pathSteps`. */
export function pathOf(steps: (string | number)[]): string {
  return steps.reduce<string>((path, step) => (typeof step === 'number' ? itemPath(path, step) : keyPath(path, step)), '');
}

/** Whether `path` is `prefix` itself or something inside it ("items[1].name" is within "items" and "items[1]"). */
export function isWithin(path: string, prefix: string): boolean {
  if (path === prefix) return true;
  if (!path.startsWith(prefix)) return false;
  const next = path[prefix.length];
  return next === '.' || next === '[';
}
