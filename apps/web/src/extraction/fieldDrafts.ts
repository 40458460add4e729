import type { InputProblem } from '../api/client';
import { parseJson } from '../lib/parseJson';

/** How a field of a result is edited, chosen by the value the model gave it. */
export type FieldDraft =
  | { kind: 'string'; text: string }
  /** A null is edited as text: left empty it stays null. */
  | { kind: 'null'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'boolean'; checked: boolean }
  /** Objects and arrays, edited as JSON. */
  | { kind: 'json'; text: string };

export type Drafts = [name: string, draft: FieldDraft][];

export function draftOf(value: unknown): FieldDraft {
  if (value === null || value === undefined) return { kind: 'null', text: '' };
  if (typeof value === 'string') return { kind: 'string', text: value };
  if (typeof value === 'number') return { kind: 'number', text: String(value) };
  if (typeof value === 'boolean') return { kind: 'boolean', checked: value };
  return { kind: 'json', text: JSON.stringify(value, null, 2) };
}

export function draftsOf(values: Record<string, unknown>): Drafts {
  return Object.entries(values).map(([name, value]) => [name, draftOf(value)]);
}

type ValueOrProblem = { ok: true; value: unknown } | { ok: false; message: string };

function readDraft(draft: FieldDraft): ValueOrProblem {
  switch (draft.kind) {
    case 'string':
      return { ok: true, value: draft.text };
    case 'null':
      return { ok: true, value: draft.text === '' ? null : draft.text };
    case 'boolean':
      return { ok: true, value: draft.checked };
    case 'number': {
      const number = Number(draft.text.trim());
      return draft.text.trim() === '' || !Number.isFinite(number)
        ? { ok: false, message: 'Enter a number, such as 42 or 17.5.' }
        : { ok: true, value: number };
    }
    case 'json': {
      const parsed = parseJson(draft.text);
      if (parsed.ok) return { ok: true, value: parsed.value };
      const where = parsed.error.line === undefined ? '' : `Line ${parsed.error.line}, column ${parsed.error.column}: `;
      return { ok: false, message: `${where}${parsed.error.message}` };
    }
  }
}

/** The values to save, or what is wrong with each field that cannot be read. */
export function valuesOf(drafts: Drafts): { values: Record<string, unknown>; problems: InputProblem[] } {
  const values: Record<string, unknown> = {};
  const problems: InputProblem[] = [];
  for (const [name, draft] of drafts) {
    const result = readDraft(draft);
    if (result.ok) values[name] = result.value;
    else problems.push({ path: name, message: result.message });
  }
  return { values, problems };
}

/** Whether a problem's dot path is about the field (or something inside it). */
export function isAbout(problem: InputProblem, name: string): boolean {
  return problem.path === name || problem.path.startsWith(`${name}.`);
}
