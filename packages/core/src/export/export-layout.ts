import { LayoutInference } from '../data/extractions/result-layout-inference.ts';
import { revisionSchema } from '../data/extractions/result-sources.ts';
import { layoutOfSchema, type ResultTableLayout, SCALAR_ITEM_COLUMN } from '../data/extractions/result-table-layout.ts';
import type { Db } from '../db/database.ts';
import { type ExportFilter, exportedResults } from './export-query.ts';

/** A column of the one-row-per-document table: a field of the result, nested objects' fields by dotted path. */
export interface ExportColumn {
  header: string;
  path: string[];
}

/** A list field: in XLSX, its items are rows of the items sheet. */
export interface ExportList {
  key: string;
  /** The item fields (a list of scalars has one, `value`, with the empty key). */
  columns: Array<{ header: string; key: string }>;
  scalarItems: boolean;
}

export interface ExportLayout {
  /** The result's columns, lists last (each a JSON text cell). */
  columns: ExportColumn[];
  lists: ExportList[];
  /** The items sheet's item columns: every list's, by header, in order first seen. */
  itemHeaders: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Nested fields past this many stay JSON text: a free-form answer's keys may differ with every document. */
const MAX_NESTED = 1000;

/** What a field held across the results: when every value was an object, its fields. */
class FieldShape {
  scalar = false;
  readonly fields = new Map<string, FieldShape>();

  observe(value: unknown, budget: { left: number }): void {
    if (value === null || value === undefined) return;
    if (!isObject(value)) {
      this.scalar = true;
      return;
    }
    for (const [key, inner] of Object.entries(value)) {
      let field = this.fields.get(key);
      if (!field && budget.left > 0) {
        budget.left--;
        field = new FieldShape();
        this.fields.set(key, field);
      }
      field?.observe(inner, budget);
    }
  }

  /** Dotted columns for an object field, else the field's own. */
  columns(path: string[]): ExportColumn[] {
    if (this.scalar || this.fields.size === 0) return [{ header: path.join('.'), path }];
    return [...this.fields.entries()].flatMap(([key, field]) => field.columns([...path, key]));
  }
}

/**
 * The export's columns. Which fields there are, which are lists and what their items hold is the
 * built-in extractions dataset's layout (`layoutOfSchema` for a prompt with a schema, else
 * `LayoutInference` over the results); on top of it, a field whose every value is an object is
 * spread into dotted columns (`address.city`), found by one pass over the results.
 */
export async function exportLayoutOf(
  db: Db,
  orgId: string,
  promptId: string,
  promptRevid: string,
  filter: ExportFilter,
): Promise<ExportLayout> {
  const schema = await revisionSchema(db, promptRevid);
  const inference = schema ? null : new LayoutInference();
  const shapes = new Map<string, FieldShape>();
  const budget = { left: MAX_NESTED };
  for await (const page of exportedResults(db, orgId, promptId, filter)) {
    for (const result of page) {
      inference?.observe(result.value);
      if (!isObject(result.value)) continue;
      for (const [key, value] of Object.entries(result.value)) {
        let shape = shapes.get(key);
        if (!shape) {
          shape = new FieldShape();
          shapes.set(key, shape);
        }
        shape.observe(value, budget);
      }
    }
  }
  const base: ResultTableLayout = schema ? layoutOfSchema(schema) : (inference as LayoutInference).layout();
  return layoutFrom(base, shapes);
}

function layoutFrom(base: ResultTableLayout, shapes: Map<string, FieldShape>): ExportLayout {
  const columns = base.columns.flatMap((c) => shapes.get(c.key)?.columns([c.key]) ?? [{ header: c.key, path: [c.key] }]);
  const lists = base.lists.map((list) => ({
    key: list.key,
    scalarItems: list.scalarItems,
    columns: list.columns.map((c) => ({ header: list.scalarItems ? SCALAR_ITEM_COLUMN : c.key, key: c.key })),
  }));
  for (const list of lists) columns.push({ header: list.key, path: [list.key] });
  const itemHeaders = [...new Set(lists.flatMap((list) => list.columns.map((c) => c.header)))];
  return { columns, lists, itemHeaders };
}
