/**
 * A result's values as the form edits them, and back. Each value gets the editor its shape calls
 * for; a value that does not fit its shape ("12,50 €" where the schema says number) keeps its own
 * text in a plain text input, so that nothing the model answered is lost on the way.
 */
import type { InputProblem } from '../api/client';
import { parseJson } from '../lib/parseJson.ts';
import {
  type FieldShape,
  isIsoDate,
  isJsonObject,
  resultShapes,
  type ScalarShape,
  type ScalarType,
  valueShape,
} from './fieldShapes.ts';

export interface ScalarDraft {
  kind: 'scalar';
  type: ScalarType;
  /** What the input holds; "true" or "false" for a boolean, "" for empty. */
  text: string;
  /** Left empty, the value is null. */
  nullable: boolean;
  /** The value does not fit the type: it is edited as plain text, as it was. */
  raw: boolean;
  /** Long or multi-line text, edited in a text area that grows with it. */
  long: boolean;
}

export interface JsonDraft {
  kind: 'json';
  text: string;
}

interface ListItem {
  id: string;
  draft: ScalarDraft;
}

interface TableRow {
  id: string;
  /** A key the row's object did not have is absent until it is typed in. */
  cells: Record<string, FieldDraft>;
}

export interface ListDraft {
  kind: 'list';
  item: ScalarShape;
  items: ListItem[];
  /** The value was null: left without items, it stays null. */
  emptyIsNull: boolean;
}

export interface TableDraft {
  kind: 'table';
  columns: [name: string, shape: FieldShape][];
  rows: TableRow[];
  /** The value was null: left without rows, it stays null. */
  emptyIsNull: boolean;
}

export interface ObjectDraft {
  kind: 'object';
  fields: Drafts;
}

export type FieldDraft = ScalarDraft | JsonDraft | ListDraft | TableDraft | ObjectDraft;

export type Drafts = [name: string, draft: FieldDraft][];

/** Past this many characters a text is edited in a text area. */
const LONG_TEXT = 60;

let lastId = 0;
/** Keys rows and items apart while they are added and removed. */
export function newDraftId(): string {
  lastId += 1;
  return `draft-${lastId}`;
}

function fits(type: ScalarType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'date':
      return isIsoDate(value);
    case 'number':
    case 'integer':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
  }
}

function scalarDraft(shape: ScalarShape, value: unknown): ScalarDraft {
  const text = value === null || value === undefined ? '' : String(value);
  const raw = value !== null && value !== undefined && !fits(shape.type, value);
  const long = shape.type === 'string' || raw ? text.length > LONG_TEXT || text.includes('\n') : false;
  // A value that was null stays null while its input is left empty.
  return { kind: 'scalar', type: shape.type, text, nullable: shape.nullable || value === null, raw, long };
}

const jsonDraft = (value: unknown): JsonDraft => ({ kind: 'json', text: JSON.stringify(value ?? null, null, 2) });

/** An empty value of the type, for a list item that is added. */
export function emptyScalar(shape: ScalarShape): ScalarDraft {
  const draft = scalarDraft(shape, undefined);
  // A box that must be ticked or not starts unticked, as it looks.
  return shape.type === 'boolean' && !shape.nullable ? { ...draft, text: 'false' } : draft;
}

/** An empty cell of a column, for a row that is added or a key a row did not have. */
export function emptyCell(shape: FieldShape): FieldDraft {
  return shape.kind === 'scalar' ? emptyScalar(shape) : jsonDraft(null);
}

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** How a value is edited, given the shape it should have. */
export function draftOf(value: unknown, shape: FieldShape = valueShape(value)): FieldDraft {
  switch (shape.kind) {
    case 'scalar':
      return isScalar(value) ? scalarDraft(shape, value) : jsonDraft(value);
    case 'list':
      if (value === null && shape.nullable) return { kind: 'list', item: shape.item, items: [], emptyIsNull: true };
      if (!Array.isArray(value) || !value.every(isScalar)) return jsonDraft(value);
      return {
        kind: 'list',
        item: shape.item,
        items: value.map((item) => ({ id: newDraftId(), draft: scalarDraft(shape.item, item) })),
        emptyIsNull: false,
      };
    case 'table': {
      if (value === null && shape.nullable) return { kind: 'table', columns: shape.columns, rows: [], emptyIsNull: true };
      if (!Array.isArray(value) || !value.every(isJsonObject)) return jsonDraft(value);
      // Keys the schema does not name are kept as columns of their own.
      const named = new Set(shape.columns.map(([name]) => name));
      const extra = valueShape(value.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !named.has(key)))));
      const columns = [...shape.columns, ...(extra.kind === 'table' ? extra.columns : [])];
      const rows = value.map((row) => ({
        id: newDraftId(),
        cells: Object.fromEntries(
          columns.filter(([name]) => Object.hasOwn(row, name)).map(([name, cell]) => [name, draftOf(row[name], cell)]),
        ),
      }));
      return { kind: 'table', columns, rows, emptyIsNull: false };
    }
    case 'object': {
      if (!isJsonObject(value)) return jsonDraft(value);
      const shapes = new Map(shape.fields);
      return { kind: 'object', fields: Object.entries(value).map(([name, v]) => [name, draftOf(v, shapes.get(name))]) };
    }
    case 'json':
      return jsonDraft(value);
  }
}

/** The drafts of a result's values; `schema` is the root of the prompt's JSON Schema, when known. */
export function draftsOf(values: Record<string, unknown>, schema?: unknown): Drafts {
  const shapes = resultShapes(values, schema);
  return Object.entries(values).map(([name, value]) => [name, draftOf(value, shapes.get(name))]);
}

type Read = { ok: true; value: unknown } | { ok: false };

function readScalar(draft: ScalarDraft, path: string, problems: InputProblem[]): Read {
  const text = draft.text.trim();
  const problem = (message: string): Read => {
    problems.push({ path, message });
    return { ok: false };
  };
  if (draft.text === '' && draft.nullable) return { ok: true, value: null };
  switch (draft.type) {
    case 'string':
    case 'date':
      return { ok: true, value: draft.text };
    case 'number':
    case 'integer': {
      const number = Number(text);
      if (text === '' || !Number.isFinite(number)) {
        return problem(`Enter a number, such as 42 or 17.5${text === '' ? '' : ` (“${draft.text}” is not one)`}.`);
      }
      return draft.type === 'integer' && !Number.isInteger(number)
        ? problem(`Enter a whole number, such as 42 (${number} has decimals).`)
        : { ok: true, value: number };
    }
    case 'boolean':
      if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
      return problem(text === '' ? 'Choose yes or no.' : `Enter true or false (it is “${draft.text}”).`);
  }
}

function readDraft(draft: FieldDraft, path: string, problems: InputProblem[]): Read {
  switch (draft.kind) {
    case 'scalar':
      return readScalar(draft, path, problems);
    case 'json': {
      const parsed = parseJson(draft.text);
      if (parsed.ok) return parsed;
      const where = parsed.error.line === undefined ? '' : `Line ${parsed.error.line}, column ${parsed.error.column}: `;
      problems.push({ path, message: `${where}${parsed.error.message}` });
      return { ok: false };
    }
    case 'list':
      if (draft.items.length === 0 && draft.emptyIsNull) return { ok: true, value: null };
      return readAll(
        draft.items.map(({ draft: item }, index): [string, FieldDraft] => [String(index), item]),
        path,
        problems,
        true,
      );
    case 'table':
      if (draft.rows.length === 0 && draft.emptyIsNull) return { ok: true, value: null };
      return readAll(
        draft.rows.map((row, index): [string, FieldDraft] => [
          String(index),
          { kind: 'object', fields: Object.entries(row.cells) },
        ]),
        path,
        problems,
        true,
      );
    case 'object':
      return readAll(draft.fields, path, problems, false);
  }
}

function readAll(entries: Drafts, path: string, problems: InputProblem[], asArray: boolean): Read {
  const values: [string, unknown][] = [];
  const before = problems.length;
  for (const [key, draft] of entries) {
    const read = readDraft(draft, path === '' ? key : `${path}.${key}`, problems);
    if (read.ok) values.push([key, read.value]);
  }
  if (problems.length > before) return { ok: false };
  return { ok: true, value: asArray ? values.map(([, value]) => value) : Object.fromEntries(values) };
}

/** The values to save, or what is wrong with each value that cannot be read, by its dot path. */
export function valuesOf(drafts: Drafts): { values: Record<string, unknown>; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const read = readAll(drafts, '', problems, false);
  return { values: read.ok ? (read.value as Record<string, unknown>) : {}, problems };
}

/** Whether a problem's dot path is about the field (or something inside it). */
export function isAbout(problem: InputProblem, name: string): boolean {
  return problem.path === name || problem.path.startsWith(`${name}.`);
}
