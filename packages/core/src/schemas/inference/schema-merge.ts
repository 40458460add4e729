import type { ResponseFormat } from '../schema-validation.ts';

/**
 * Merging what several sample documents hold into one strict schema. A field every sample has is
 * required and never null; one only some have may be null. Decided here, without a model, so the
 * same samples always give the same schema.
 */

export const SCALAR_TYPES = ['string', 'number', 'integer', 'boolean', 'date'] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];
export type FieldType = ScalarType | 'list';

/** A field as one sample shows it. */
export interface FieldSighting {
  name: string;
  type: FieldType;
  description: string;
  /** For a list: the fields of its items. */
  itemFields?: FieldSighting[];
}

export interface MergedField {
  name: string;
  type: FieldType;
  description: string;
  /** How many of the samples have it. */
  presentIn: number;
  nullable: boolean;
  itemFields?: MergedField[];
}

/** A property name as strict schemas and result tables want it: lower snake case. */
export function fieldKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
}

/** Two samples typing a field differently: numbers widen to number, anything else to string. */
function widen(a: FieldType, b: FieldType): FieldType {
  if (a === b) return a;
  if ((a === 'number' || a === 'integer') && (b === 'number' || b === 'integer')) return 'number';
  return 'string';
}

/** The fields of all samples (one list per sample), in the order they were first seen. */
export function mergeSightings(perSample: FieldSighting[][]): MergedField[] {
  const samples = perSample.length;
  const merged = new Map<string, { field: MergedField; items: FieldSighting[][] }>();
  for (const sightings of perSample) {
    const seenHere = new Set<string>();
    for (const sighting of sightings) {
      const key = fieldKey(sighting.name);
      if (key === '' || seenHere.has(key)) continue;
      seenHere.add(key);
      const entry = merged.get(key);
      if (!entry) {
        merged.set(key, {
          field: { name: key, type: sighting.type, description: sighting.description.trim(), presentIn: 1, nullable: false },
          items: sighting.itemFields ? [sighting.itemFields] : [],
        });
        continue;
      }
      entry.field.presentIn += 1;
      entry.field.type = widen(entry.field.type, sighting.type);
      if (!entry.field.description) entry.field.description = sighting.description.trim();
      if (sighting.itemFields) entry.items.push(sighting.itemFields);
    }
  }
  return [...merged.values()].map(({ field, items }) => ({
    ...field,
    nullable: field.presentIn < samples,
    ...(field.type === 'list' ? { itemFields: mergeSightings(items) } : {}),
  }));
}

function scalarSchema(type: ScalarType): Record<string, unknown> {
  return type === 'date' ? { type: 'string' } : { type };
}

function propertySchema(field: MergedField): Record<string, unknown> {
  const description = field.type === 'date' ? `${field.description} (a date, as written)`.trim() : field.description;
  if (field.type === 'list') {
    const items = objectSchema(field.itemFields ?? []);
    return {
      type: field.nullable ? ['array', 'null'] : 'array',
      ...(description ? { description } : {}),
      items,
    };
  }
  const base = scalarSchema(field.type);
  return {
    type: field.nullable ? [base.type, 'null'] : base.type,
    ...(description ? { description } : {}),
  };
}

function objectSchema(fields: MergedField[]): Record<string, unknown> {
  // A list whose items showed no fields keeps them as text.
  const shown =
    fields.length > 0 ? fields : [{ name: 'value', type: 'string' as const, description: '', presentIn: 1, nullable: false }];
  return {
    type: 'object',
    properties: Object.fromEntries(shown.map((f) => [f.name, propertySchema(f)])),
    required: shown.map((f) => f.name),
    additionalProperties: false,
  };
}

/** The strict response_format of the merged fields. */
export function strictSchemaOf(fields: MergedField[], name: string): ResponseFormat {
  return { type: 'json_schema', json_schema: { name, schema: objectSchema(fields), strict: true } };
}
