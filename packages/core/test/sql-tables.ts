import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { TableFile } from '../src/index.ts';

/** Small Parquet tables for the SQL tests, written by DuckDB in the test process itself. */
export interface SqlTestTables {
  dir: string;
  orders: TableFile;
  customers: TableFile;
  /** A Parquet file beside them that is no table of the dataset: queries must not reach it. */
  otherPath: string;
  remove(): void;
}

const ORDERS = `
  SELECT i AS id, (i % 4) + 1 AS customer_id,
         CAST(i * 10 + 0.5 AS DECIMAL(10, 2)) AS amount,
         CASE WHEN i % 3 = 0 THEN 'open' WHEN i % 3 = 1 THEN 'paid' ELSE 'it''s "odd"' END AS status,
         DATE '2024-01-01' + CAST(i AS INTEGER) AS ordered_on,
         CASE WHEN i % 5 = 0 THEN NULL ELSE 'note ' || i END AS note
  FROM range(1, 21) t(i)`;

const CUSTOMERS = `
  SELECT * FROM (VALUES (1, 'Ada', 'Paris'), (2, 'Bob', 'Lyon'), (3, 'Cleo', 'Paris'), (4, 'Dan', NULL)) c(id, name, city)`;

export async function writeSqlTestTables(): Promise<SqlTestTables> {
  const dir = mkdtempSync(join(tmpdir(), 'docagent-sql-'));
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const write = async (name: string, select: string): Promise<TableFile> => {
    const parquetPath = join(dir, `${name}.parquet`);
    await connection.run(`COPY (${select}) TO '${parquetPath}' (FORMAT parquet)`);
    const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM '${parquetPath}'`);
    const columns = described.getRowObjectsJS().map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
    return { name, parquetPath, csvPath: join(dir, `${name}.csv`), columns };
  };
  const orders = await write('orders', ORDERS);
  const customers = await write('customers', CUSTOMERS);
  const otherPath = join(dir, 'secret.parquet');
  await connection.run(`COPY (SELECT 'top secret' AS secret) TO '${otherPath}' (FORMAT parquet)`);
  connection.closeSync();
  instance.closeSync();
  return { dir, orders, customers, otherPath, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
