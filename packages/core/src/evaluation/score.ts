import { childPath } from '../grounding/leaf-values.ts';
import { normalizeText, valueKeys } from '../grounding/value-forms.ts';

/**
 * Scoring an answer against the truth, leaf by leaf. Values are compared after the grounding's
 * normalisation: amounts whatever their separators ("1,234.50" is 1234.5), dates whatever their
 * notation ("Nov 15 2012" is "2012-11-15"), text whatever its case and spacing. Arrays are matched
 * irrespective of order: the items of the two sides are paired greedily, the pair agreeing on the
 * most leaves first (for scalars: equal ones first), so each item is used once (a multiset); items
 * left over on either side are wrong. A field missing on one side is wrong unless both are
 * null/empty (missing, null, "", [] or {}), which counts as one correct leaf.
 */

/** One compared leaf: where (`path` with indexes, `field` without: "line_items[].amount"), and whether it agrees. */
export interface LeafScore {
  path: string;
  field: string;
  correct: boolean;
  expected: unknown;
  actual: unknown;
}

export interface FieldAccuracy {
  path: string;
  correct: number;
  total: number;
  accuracy: number;
}

export interface EvaluationDifference {
  documentId: string;
  path: string;
  field: string;
  expected: unknown;
  actual: unknown;
}

export interface EvaluationScore {
  overall: { correct: number; total: number; accuracy: number | null };
  fields: FieldAccuracy[];
  differences: EvaluationDifference[];
}

type Json = unknown;

const isObject = (v: Json): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Missing, null, blank text, an empty array or object: nothing said. */
export function isEmptyValue(v: Json): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v)) return Object.keys(v).length === 0;
  return false;
}

/** Whether two scalars are the same value after normalisation. */
export function sameValue(expected: Json, actual: Json): boolean {
  if (isEmptyValue(expected) || isEmptyValue(actual)) return isEmptyValue(expected) && isEmptyValue(actual);
  if (typeof expected === 'boolean' || typeof actual === 'boolean') {
    return normalizeText(String(expected)) === normalizeText(String(actual));
  }
  if (typeof expected !== 'string' && typeof expected !== 'number') return false;
  if (typeof actual !== 'string' && typeof actual !== 'number') return false;
  if (normalizeText(String(expected)) === normalizeText(String(actual))) return true;
  const keys = new Set(valueKeys(expected));
  return valueKeys(actual).some((k) => keys.has(k));
}

const asArray = (v: Json): unknown[] => (Array.isArray(v) ? v : isEmptyValue(v) ? [] : [v]);

/** The leaves of `expected` and `actual` compared; `path`/`field` are where they are. */
export function compareValues(expected: Json, actual: Json, path = '', field = path): LeafScore[] {
  if (isEmptyValue(expected) && isEmptyValue(actual)) {
    return [{ path, field, correct: true, expected: expected ?? null, actual: actual ?? null }];
  }
  if (isObject(expected) || isObject(actual)) {
    const e = isObject(expected) ? expected : {};
    const a = isObject(actual) ? actual : {};
    const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])];
    const leaves = keys.flatMap((k) => compareValues(e[k], a[k], childPath(path, k), childPath(field, k)));
    // A scalar where an object was expected (or the other way round) is wrong even with no keys to blame.
    if (leaves.length === 0 || (!isObject(expected) && !isEmptyValue(expected)) || (!isObject(actual) && !isEmptyValue(actual))) {
      leaves.push({ path, field, correct: false, expected: expected ?? null, actual: actual ?? null });
    }
    return leaves;
  }
  if (Array.isArray(expected) || Array.isArray(actual)) return compareArrays(asArray(expected), asArray(actual), path, field);
  return [{ path, field, correct: sameValue(expected, actual), expected: expected ?? null, actual: actual ?? null }];
}

const correctCount = (leaves: LeafScore[]) => leaves.reduce((n, l) => n + (l.correct ? 1 : 0), 0);

function compareArrays(expected: unknown[], actual: unknown[], path: string, field: string): LeafScore[] {
  const itemField = `${field}[]`;
  const pairs: Array<{ i: number; j: number; leaves: LeafScore[]; agree: number }> = [];
  for (const [i, e] of expected.entries()) {
    for (const [j, a] of actual.entries()) {
      const leaves = compareValues(e, a, childPath(path, i), itemField);
      pairs.push({ i, j, leaves, agree: correctCount(leaves) });
    }
  }
  // Most agreeing pairs first; among equals, the earlier items (so a list in the same order pairs in order).
  pairs.sort((x, y) => y.agree - x.agree || x.i - y.i || x.j - y.j);
  const usedE = new Set<number>();
  const usedA = new Set<number>();
  const matched = new Map<number, LeafScore[]>();
  for (const pair of pairs) {
    if (usedE.has(pair.i) || usedA.has(pair.j)) continue;
    usedE.add(pair.i);
    usedA.add(pair.j);
    matched.set(pair.i, pair.leaves);
  }
  const leaves: LeafScore[] = [];
  for (const [i, e] of expected.entries()) {
    leaves.push(...(matched.get(i) ?? wrongLeaves(e, undefined, childPath(path, i), itemField)));
  }
  for (const [j, a] of actual.entries()) {
    if (!usedA.has(j)) leaves.push(...wrongLeaves(undefined, a, childPath(path, j), itemField));
  }
  return leaves;
}

/** An item with no counterpart: each of its leaves is wrong, even the empty ones (the item itself is extra or missing). */
function wrongLeaves(expected: Json, actual: Json, path: string, field: string): LeafScore[] {
  return compareValues(expected, actual, path, field).map((l) => ({ ...l, correct: false }));
}

/** Scores the documents' answers against their truths: accuracy per field and overall, and the leaves that differ. */
export function scoreEvaluation(documents: Array<{ documentId: string; expected: Json; actual: Json }>): EvaluationScore {
  const fields = new Map<string, { correct: number; total: number }>();
  const differences: EvaluationDifference[] = [];
  let correct = 0;
  let total = 0;
  for (const doc of documents) {
    for (const leaf of compareValues(doc.expected, doc.actual)) {
      const tally = fields.get(leaf.field) ?? { correct: 0, total: 0 };
      fields.set(leaf.field, tally);
      tally.total += 1;
      total += 1;
      if (leaf.correct) {
        tally.correct += 1;
        correct += 1;
      } else {
        differences.push({
          documentId: doc.documentId,
          path: leaf.path,
          field: leaf.field,
          expected: leaf.expected,
          actual: leaf.actual,
        });
      }
    }
  }
  return {
    overall: { correct, total, accuracy: total === 0 ? null : ratio(correct, total) },
    fields: [...fields].map(([path, t]) => ({ path, ...t, accuracy: ratio(t.correct, t.total) })),
    differences,
  };
}

/** A share rounded to four decimals (0.6667), so that equal shares compare equal. */
export const ratio = (correct: number, total: number): number => Math.round((correct / total) * 10_000) / 10_000;
