import { tableNameOf } from '../datasets/table-names.ts';

/** The DuckDB types a result's fields become; objects, mixed values and lists inside lists are JSON text. */
export type ColumnType = 'VARCHAR' | 'DOUBLE' | 'BIGINT' | 'BOOLEAN' | 'DATE';

/** A field of a result, or of a list item, as a typed column. */
export interface FieldColumn {
  /** The field's key in the JSON. */
  key: string;
  /** The column's name: the key when it is an identifier already, else made one. */
  name: string;
  type: ColumnType;
}

/** A list field as a child table, a row per item. */
export interface ListTable {
  key: string;
  /** The name the child table's name ends with. */
  name: string;
  /** Items are scalars (or mixed): one column `value`. Else objects: a column per field. */
  scalarItems: boolean;
  columns: FieldColumn[];
}

/** The columns of a prompt's table after `document_id` and `document_name`, and its child tables. */
export interface ResultTableLayout {
  columns: FieldColumn[];
  lists: ListTable[];
}

/** Fields past these are left out: a free-form prompt's keys may differ with every document. */
const MAX_COLUMNS = 200;
const MAX_NAME = 63;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const PARENT_KEY_COLUMNS = ['document_id', 'document_name'] as const;
export const LIST_KEY_COLUMNS = ['document_id', 'item_index'] as const;
export const SCALAR_ITEM_COLUMN = 'value';

/**
 * Names for the keys, in order: a key that is an identifier already stays as it is, another is made
 * one as table names are; DuckDB ignores case, so names equal but for case get `_2`, `_3`...
 */
export function columnsNamed(fields: Array<{ key: string; type: ColumnType }>, reserved: readonly string[]): FieldColumn[] {
  const taken = new Set(reserved.map((r) => r.toLowerCase()));
  return fields.slice(0, MAX_COLUMNS).map(({ key, type }) => {
    const wanted = IDENTIFIER.test(key) && key.length <= MAX_NAME ? key : tableNameOf(key);
    let name = wanted;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${wanted.slice(0, MAX_NAME - `_${n}`.length)}_${n}`;
    taken.add(name.toLowerCase());
    return { key, name, type };
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A part of a JSON Schema with local `$ref`s followed (`#/$defs/...`, `#/definitions/...`). */
function resolved(node: unknown, root: Record<string, unknown>, depth = 0): Record<string, unknown> | null {
  if (!isObject(node)) return null;
  if (typeof node.$ref !== 'string') return node;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(node.$ref);
  const defs = match?.[1] ? root[match[1]] : undefined;
  const name = match?.[2]?.replaceAll('~1', '/').replaceAll('~0', '~');
  return depth < 16 && isObject(defs) && name !== undefined ? resolved(defs[name], root, depth + 1) : null;
}

type Shape = { type: ColumnType } | { items: unknown };

/** What a property of a JSON Schema holds: a scalar of a DuckDB type, or a list (with its item schema). */
function shapeOf(node: unknown, root: Record<string, unknown>): Shape {
  const schema = resolved(node, root);
  if (!schema) return { type: 'VARCHAR' };
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.map((b) => resolved(b, root)).filter((b) => b !== null && b.type !== 'null');
    const [only] = branches;
    if (branches.length === 1) return shapeOf(only, root);
    const types = new Set(branches.map((b) => shapeOf(b, root)).map((s) => ('type' in s ? s.type : 'list')));
    const [type] = types;
    return types.size === 1 && type !== 'list' ? { type: type as ColumnType } : { type: 'VARCHAR' };
  }
  const declared = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t): t is string => typeof t === 'string' && t !== 'null',
  );
  if (declared.length > 1) return { type: declared.every((t) => t === 'number' || t === 'integer') ? 'DOUBLE' : 'VARCHAR' };
  const type = declared[0] ?? (schema.items !== undefined ? 'array' : undefined);
  if (type === 'string') return { type: schema.format === 'date' ? 'DATE' : 'VARCHAR' };
  if (type === 'number') return { type: 'DOUBLE' };
  if (type === 'integer') return { type: 'BIGINT' };
  if (type === 'boolean') return { type: 'BOOLEAN' };
  if (type === 'array') return { items: schema.items };
  return { type: 'VARCHAR' };
}

/** The properties of an object schema (a nullable one included); null when it is not one. */
function propertiesOf(node: unknown, root: Record<string, unknown>): Record<string, unknown> | null {
  const schema = resolved(node, root);
  if (!schema) return null;
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.map((b) => resolved(b, root)).filter((b) => b !== null && b.type !== 'null');
    return branches.length === 1 ? propertiesOf(branches[0], root) : null;
  }
  return isObject(schema.properties) ? schema.properties : null;
}

/** A list's items as columns: an object's fields (lists inside are JSON text), or one `value` column. */
function itemsOf(items: unknown, root: Record<string, unknown>): Pick<ListTable, 'scalarItems' | 'columns'> {
  const properties = propertiesOf(items, root);
  if (properties === null) {
    const shape = shapeOf(items, root);
    return {
      scalarItems: true,
      columns: [{ key: '', name: SCALAR_ITEM_COLUMN, type: 'type' in shape ? shape.type : 'VARCHAR' }],
    };
  }
  const fields = Object.entries(properties).map(([key, node]) => {
    const shape = shapeOf(node, root);
    return { key, type: 'type' in shape ? shape.type : ('VARCHAR' as const) };
  });
  return { scalarItems: false, columns: columnsNamed(fields, LIST_KEY_COLUMNS) };
}

/**
 * The tables a prompt's JSON Schema makes: its top-level properties in order, scalars as typed
 * columns (string, number, integer, boolean, string with format date), objects as JSON text, and
 * each list as a child table.
 */
export function layoutOfSchema(schema: Record<string, unknown>): ResultTableLayout {
  const properties = propertiesOf(schema, schema) ?? {};
  const entries = Object.entries(properties).map(([key, node]) => ({ key, shape: shapeOf(node, schema) }));
  const named = columnsNamed(
    entries.map(({ key, shape }) => ({ key, type: 'type' in shape ? shape.type : 'VARCHAR' })),
    PARENT_KEY_COLUMNS,
  );
  const columns: FieldColumn[] = [];
  const lists: ListTable[] = [];
  named.forEach((column, i) => {
    const shape = entries[i]?.shape;
    if (shape && 'items' in shape) lists.push({ key: column.key, name: column.name, ...itemsOf(shape.items, schema) });
    else columns.push(column);
  });
  return { columns, lists };
}
