import {
  arrayFromArrayValue,
  arrayFromListValue,
  booleanFromValue,
  createDuckDBValueConverter,
  type DuckDBDecimalValue,
  DuckDBTypeId,
  type DuckDBValue,
  type DuckDBValueConverter,
  fromVariantValue,
  nullConverter,
  numberFromValue,
  objectArrayFromMapValue,
  objectFromStructValue,
  objectFromUnionValue,
  stringFromValue,
  unsupportedConverter,
} from '@duckdb/node-api';

/** A value as it travels in a QueryResult: what JSON can carry without losing it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** BIGINT, HUGEINT...: a number when JavaScript holds it exactly, else its digits. */
function integer(value: DuckDBValue): number | string {
  const big = value as bigint;
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString();
}

/** NaN and the infinities have no JSON number: they travel as "NaN", "Infinity", "-Infinity". */
function float(value: DuckDBValue): number | string {
  const n = value as number;
  return Number.isFinite(n) ? n : String(n);
}

const decimal = (value: DuckDBValue) => (value as DuckDBDecimalValue).toDouble();

/**
 * ISO 8601 from DuckDB's text ("2024-01-02 03:04:05.5", "...+00" with a zone): the text
 * keeps every digit (microseconds, nanoseconds) a Date would drop; "infinity" and BC dates
 * stay as DuckDB writes them.
 */
function timestamp(value: DuckDBValue): string {
  const text = String(value);
  if (!/^\d{4}-\d\d-\d\d \d/.test(text)) return text;
  return text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
}

const blob = (value: DuckDBValue) => Buffer.from((value as { bytes: Uint8Array }).bytes).toString('base64');

const converters: Record<DuckDBTypeId, DuckDBValueConverter<JsonValue> | undefined> = {
  [DuckDBTypeId.INVALID]: unsupportedConverter,
  [DuckDBTypeId.BOOLEAN]: booleanFromValue,
  [DuckDBTypeId.TINYINT]: numberFromValue,
  [DuckDBTypeId.SMALLINT]: numberFromValue,
  [DuckDBTypeId.INTEGER]: numberFromValue,
  [DuckDBTypeId.BIGINT]: integer,
  [DuckDBTypeId.UTINYINT]: numberFromValue,
  [DuckDBTypeId.USMALLINT]: numberFromValue,
  [DuckDBTypeId.UINTEGER]: numberFromValue,
  [DuckDBTypeId.UBIGINT]: integer,
  [DuckDBTypeId.HUGEINT]: integer,
  [DuckDBTypeId.UHUGEINT]: integer,
  [DuckDBTypeId.FLOAT]: float,
  [DuckDBTypeId.DOUBLE]: float,
  [DuckDBTypeId.DECIMAL]: decimal,
  [DuckDBTypeId.DATE]: stringFromValue,
  [DuckDBTypeId.TIME]: stringFromValue,
  [DuckDBTypeId.TIME_TZ]: stringFromValue,
  [DuckDBTypeId.TIME_NS]: stringFromValue,
  [DuckDBTypeId.TIMESTAMP]: timestamp,
  [DuckDBTypeId.TIMESTAMP_S]: timestamp,
  [DuckDBTypeId.TIMESTAMP_MS]: timestamp,
  [DuckDBTypeId.TIMESTAMP_NS]: timestamp,
  [DuckDBTypeId.TIMESTAMP_TZ]: timestamp,
  [DuckDBTypeId.INTERVAL]: stringFromValue,
  [DuckDBTypeId.VARCHAR]: stringFromValue,
  [DuckDBTypeId.BLOB]: blob,
  [DuckDBTypeId.ENUM]: stringFromValue,
  [DuckDBTypeId.UUID]: stringFromValue,
  [DuckDBTypeId.BIT]: stringFromValue,
  [DuckDBTypeId.BIGNUM]: stringFromValue,
  [DuckDBTypeId.GEOMETRY]: stringFromValue,
  [DuckDBTypeId.LIST]: arrayFromListValue,
  [DuckDBTypeId.ARRAY]: arrayFromArrayValue,
  [DuckDBTypeId.STRUCT]: objectFromStructValue,
  [DuckDBTypeId.MAP]: objectArrayFromMapValue,
  [DuckDBTypeId.UNION]: objectFromUnionValue,
  [DuckDBTypeId.VARIANT]: fromVariantValue,
  [DuckDBTypeId.SQLNULL]: nullConverter,
  [DuckDBTypeId.ANY]: unsupportedConverter,
  [DuckDBTypeId.STRING_LITERAL]: unsupportedConverter,
  [DuckDBTypeId.INTEGER_LITERAL]: unsupportedConverter,
};

/** DuckDB values to JSON ones: BLOBs as base64, DECIMAL as a number, LIST/STRUCT/MAP as JSON. */
export const jsonValueConverter: DuckDBValueConverter<JsonValue> = createDuckDBValueConverter(converters);
