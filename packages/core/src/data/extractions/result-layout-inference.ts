import {
  type ColumnType,
  columnsNamed,
  LIST_KEY_COLUMNS,
  type ListTable,
  PARENT_KEY_COLUMNS,
  type ResultTableLayout,
  SCALAR_ITEM_COLUMN,
} from './result-table-layout.ts';

type JsonKind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

/** The kinds of value a field held across the results, and for a list, what its items held. */
interface FieldSeen {
  kinds: Set<JsonKind>;
  itemFields: Map<string, FieldSeen>;
  itemValues: Set<JsonKind>;
}

/** Keys past this many are not tracked: memory stays bounded whatever a free-form prompt answered. */
const MAX_KEYS = 1000;

const kindOf = (value: unknown): JsonKind | null => {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value as JsonKind;
  return typeof value === 'object' ? 'object' : null;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function seen(fields: Map<string, FieldSeen>, key: string): FieldSeen | undefined {
  let field = fields.get(key);
  if (!field && fields.size < MAX_KEYS) {
    field = { kinds: new Set(), itemFields: new Map(), itemValues: new Set() };
    fields.set(key, field);
  }
  return field;
}

/** A column type for these kinds: one scalar kind is typed (integers with decimals are DOUBLE), anything else is JSON text. */
function typeOf(kinds: Set<JsonKind>): ColumnType {
  if (kinds.size === 0) return 'VARCHAR';
  if ([...kinds].every((k) => k === 'integer')) return 'BIGINT';
  if ([...kinds].every((k) => k === 'integer' || k === 'number')) return 'DOUBLE';
  if (kinds.size === 1 && kinds.has('boolean')) return 'BOOLEAN';
  return 'VARCHAR';
}

/**
 * The tables of a prompt without a schema (a free-form answer, like the default summary's), from
 * what its results hold: the top-level keys in the order first seen, a key whose every value is a
 * list becomes a child table (of its items' fields when they are all objects, else of `value`).
 */
export class LayoutInference {
  private readonly fields = new Map<string, FieldSeen>();

  /** A result that is not a JSON object adds no column: its row has only its document's. */
  observe(result: unknown): void {
    if (!isObject(result)) return;
    for (const [key, value] of Object.entries(result)) {
      const kind = kindOf(value);
      const field = kind === null ? undefined : seen(this.fields, key);
      if (!field || kind === null) continue;
      field.kinds.add(kind);
      if (!Array.isArray(value)) continue;
      for (const item of value) {
        if (!isObject(item)) {
          const itemKind = kindOf(item);
          if (itemKind !== null) field.itemValues.add(itemKind);
          continue;
        }
        field.itemValues.add('object');
        for (const [itemKey, itemValue] of Object.entries(item)) {
          const itemKind = kindOf(itemValue);
          const itemField = itemKind === null ? undefined : seen(field.itemFields, itemKey);
          if (itemField && itemKind !== null) itemField.kinds.add(itemKind);
        }
      }
    }
  }

  layout(): ResultTableLayout {
    const entries = [...this.fields.entries()];
    const isList = (field: FieldSeen) => field.kinds.size === 1 && field.kinds.has('array');
    const named = columnsNamed(
      entries.map(([key, field]) => ({ key, type: typeOf(field.kinds) })),
      PARENT_KEY_COLUMNS,
    );
    const layout: ResultTableLayout = { columns: [], lists: [] };
    named.forEach((column, i) => {
      const field = entries[i]?.[1];
      if (field && isList(field)) layout.lists.push({ key: column.key, name: column.name, ...itemsOf(field) });
      else layout.columns.push(column);
    });
    return layout;
  }
}

function itemsOf(field: FieldSeen): Pick<ListTable, 'scalarItems' | 'columns'> {
  const objectsOnly = field.itemValues.size === 1 && field.itemValues.has('object');
  if (!objectsOnly) {
    return { scalarItems: true, columns: [{ key: '', name: SCALAR_ITEM_COLUMN, type: typeOf(field.itemValues) }] };
  }
  const fields = [...field.itemFields.entries()].map(([key, item]) => ({ key, type: typeOf(item.kinds) }));
  return { scalarItems: false, columns: columnsNamed(fields, LIST_KEY_COLUMNS) };
}
