import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { compileQueryPlan, DuckDbSqlRunner, QueryPlanError, runQueryPlan, type TableFile } from '../src/index.ts';
import { type SqlTestTables, writeSqlTestTables } from './sql-tables.ts';

const orders = {
  name: 'orders',
  columns: [
    { name: 'id', type: 'BIGINT' },
    { name: 'status', type: 'VARCHAR' },
    { name: 'amount', type: 'DECIMAL(10,2)' },
    { name: 'ordered_on', type: 'DATE' },
    { name: 'Zip Code', type: 'VARCHAR' },
  ],
};
const weird = { name: 'we"ird', columns: [{ name: 'a"b', type: 'INTEGER' }] };

const planError = (plan: unknown, tables = [orders, weird]): QueryPlanError => {
  try {
    compileQueryPlan(plan, tables);
  } catch (error) {
    assert.ok(error instanceof QueryPlanError, `not a QueryPlanError: ${error}`);
    assert.equal(error.code, 'PLAN_VALIDATION_ERROR');
    return error;
  }
  return assert.fail('the plan compiled');
};

describe('compiling a query plan', () => {
  test('the smallest plan selects everything, up to the default limit', () => {
    assert.deepEqual(compileQueryPlan({ table: 'orders' }, [orders]), {
      plan: { table: 'orders', select: ['*'], filters: [], group_by: [], order_by: [], limit: 200 },
      sql: 'SELECT * FROM "orders" LIMIT 200',
      params: [],
    });
  });

  test('every operator, each value bound in order', () => {
    const { sql, params } = compileQueryPlan(
      {
        table: 'orders',
        select: ['id', { column: 'status' }],
        filters: [
          { column: 'id', operator: '=', value: 1 },
          { column: 'id', operator: '!=', value: 2 },
          { column: 'id', operator: '<', value: 3 },
          { column: 'id', operator: '<=', value: 4 },
          { column: 'id', operator: '>', value: 5 },
          { column: 'id', operator: '>=', value: 6 },
          { column: 'status', operator: 'in', value: ['open', 'paid'] },
          { column: 'status', operator: 'not_in', value: ['void'] },
          { column: 'status', operator: 'like', value: 'o%' },
          { column: 'status', operator: 'is_null' },
          { column: 'amount', operator: 'is_not_null', value: null },
          { column: 'ordered_on', operator: 'between', value: ['2024-01-01', '2024-01-31'] },
        ],
        limit: 10,
      },
      [orders],
    );
    assert.equal(
      sql,
      'SELECT "id", "status" FROM "orders" WHERE "id" = $1 AND "id" <> $2 AND "id" < $3 AND "id" <= $4 AND "id" > $5 AND "id" >= $6' +
        ' AND "status" IN ($7, $8) AND "status" NOT IN ($9) AND "status" LIKE $10 AND "status" IS NULL AND "amount" IS NOT NULL' +
        ' AND "ordered_on" BETWEEN $11 AND $12 LIMIT 10',
    );
    assert.deepEqual(params, [1, 2, 3, 4, 5, 6, 'open', 'paid', 'void', 'o%', '2024-01-01', '2024-01-31']);
  });

  test('aggregates, grouping and ordering by an alias', () => {
    const { sql } = compileQueryPlan(
      {
        table: 'orders',
        select: [
          'status',
          { function: 'count', column: '*', alias: 'total' },
          { function: 'sum', column: 'amount' },
          { function: 'avg', column: 'amount', alias: 'mean' },
          { function: 'min', column: 'ordered_on' },
          { function: 'max', column: 'ordered_on' },
          { function: 'count_distinct', column: 'id', alias: 'ids' },
        ],
        group_by: ['status'],
        order_by: [{ column: 'total', direction: 'desc' }, { column: 'status' }],
      },
      [orders],
    );
    assert.equal(
      sql,
      'SELECT "status", count(*) AS "total", sum("amount") AS "sum_amount", avg("amount") AS "mean", min("ordered_on") AS "min_ordered_on",' +
        ' max("ordered_on") AS "max_ordered_on", count(DISTINCT "id") AS "ids" FROM "orders" GROUP BY "status" ORDER BY "total" DESC, "status" ASC LIMIT 200',
    );
  });

  test("identifiers are quoted with embedded quotes doubled, and matched to the schema's spelling", () => {
    assert.equal(
      compileQueryPlan({ table: 'WE"IRD', select: [{ column: 'A"B', alias: 'x" FROM orders --' }] }, [weird]).sql,
      'SELECT "a""b" AS "x"" FROM orders --" FROM "we""ird" LIMIT 200',
    );
    assert.equal(
      compileQueryPlan({ table: 'orders', select: ['zip code'] }, [orders]).sql,
      'SELECT "Zip Code" FROM "orders" LIMIT 200',
    );
  });

  test('an identifier that is not in the schema never reaches the SQL', () => {
    const error = planError({ table: 'orders', select: ['id" FROM orders; DROP VIEW orders; --'] });
    assert.match(
      error.message,
      /The column "id" FROM orders; DROP VIEW orders; --" \(in select\) is not in table "orders"; its columns are: id, status/,
    );
    assert.match(
      planError({ table: 'orders"; --' }).message,
      /The table "orders"; --" is not in the dataset; its tables are: orders, we"ird\./,
    );
    assert.match(
      planError({ table: 'orders', filters: [{ column: 'x', operator: '=', value: 1 }] }).message,
      /"x" \(in filters\)/,
    );
    assert.match(planError({ table: 'orders', order_by: [{ column: 'x' }] }).message, /"x" \(in order_by\)/);
    assert.match(planError({ table: 'orders', group_by: ['x'] }).message, /"x" \(in group_by\)/);
  });

  test('values are never written into the SQL; text columns get text', () => {
    const { sql, params } = compileQueryPlan(
      {
        table: 'orders',
        filters: [
          { column: 'status', operator: '=', value: "' OR 1=1 --" },
          { column: 'Zip Code', operator: '=', value: 75001 },
        ],
      },
      [orders],
    );
    assert.equal(sql, 'SELECT * FROM "orders" WHERE "status" = $1 AND "Zip Code" = $2 LIMIT 200');
    assert.deepEqual(params, ["' OR 1=1 --", '75001']);
  });

  test('a malformed plan is refused with each problem and its place', () => {
    assert.match(planError({ table: 'orders', limit: 10001 }).message, /^The query plan is not valid: limit: .*10000/);
    assert.match(
      planError({ table: 'orders', filters: [{ column: 'id', operator: 'in', value: 1 }] }).message,
      /filters\.0\.value: in takes a list/,
    );
    assert.match(
      planError({ table: 'orders', filters: [{ column: 'id', operator: 'between', value: [1] }] }).message,
      /between takes \[low, high\]/,
    );
    assert.match(
      planError({ table: 'orders', filters: [{ column: 'id', operator: '=' }] }).message,
      /= needs a value; to match missing values use is_null/,
    );
    assert.match(
      planError({ table: 'orders', filters: [{ column: 'id', operator: 'is_null', value: 1 }] }).message,
      /is_null takes no value/,
    );
    assert.match(
      planError({ table: 'orders', filters: [{ column: 'id', operator: '=', value: [1, 2] }] }).message,
      /not a list \(use in/,
    );
    assert.match(
      planError({ table: 'orders', filters: [{ column: 'id', operator: 'regexp', value: 'x' }] }).message,
      /filters\.0\.operator/,
    );
    assert.match(planError({ table: 'orders', having: 'x' }).message, /Unrecognized key.*having/);
    assert.match(planError({ table: 'orders', select: [{ function: 'sum', column: '*' }] }).message, /"\*" goes with count only/);
    assert.match(
      planError({ table: 'orders', select: ['id', { function: 'count', column: '*' }] }).message,
      /"id" is selected but neither grouped nor aggregated/,
    );
  });

  test('the same plan always compiles to the same text', () => {
    const plan = { table: 'orders', select: ['status', { function: 'count', column: '*' }], group_by: ['status'] };
    assert.equal(compileQueryPlan(plan, [orders]).sql, compileQueryPlan(structuredClone(plan), [orders]).sql);
  });
});

describe('running a query plan', () => {
  let fixtures: SqlTestTables;
  let tables: TableFile[];
  let runner: DuckDbSqlRunner;

  before(async () => {
    fixtures = await writeSqlTestTables();
    // A table whose names would break SQL written without quoting.
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const parquetPath = join(fixtures.dir, 'odd.parquet');
    await connection.run(`COPY (SELECT 1 AS "x""; DROP VIEW orders; --", 'a' AS "select") TO '${parquetPath}' (FORMAT parquet)`);
    connection.closeSync();
    instance.closeSync();
    const odd = {
      name: 'odd"table',
      parquetPath,
      csvPath: '',
      columns: [
        { name: 'x"; DROP VIEW orders; --', type: 'INTEGER' },
        { name: 'select', type: 'VARCHAR' },
      ],
    };
    tables = [fixtures.orders, fixtures.customers, odd];
    runner = new DuckDbSqlRunner();
  });

  after(async () => {
    await runner.close();
    fixtures.remove();
  });

  test('a grouped count runs and carries its compiled SQL and plan', async () => {
    const result = await runQueryPlan(
      runner,
      {
        table: 'orders',
        select: ['status', { function: 'count', column: '*', alias: 'n' }],
        group_by: ['status'],
        order_by: [{ column: 'status' }],
      },
      tables,
    );
    assert.deepEqual(result.rows, [
      ['it\'s "odd"', 7],
      ['open', 6],
      ['paid', 7],
    ]);
    assert.equal(
      result.compiled_sql,
      'SELECT "status", count(*) AS "n" FROM "orders" GROUP BY "status" ORDER BY "status" ASC LIMIT 200',
    );
    assert.equal(result.plan.limit, 200);
  });

  test('filters with bound values select the right rows, an injection attempt matches nothing', async () => {
    const run = (filters: unknown[]) =>
      runQueryPlan(runner, { table: 'orders', select: ['id'], filters, order_by: [{ column: 'id' }] }, tables);
    assert.deepEqual((await run([{ column: 'ordered_on', operator: 'between', value: ['2024-01-02', '2024-01-04'] }])).rows, [
      [1],
      [2],
      [3],
    ]);
    assert.deepEqual(
      (
        await run([
          { column: 'status', operator: 'like', value: 'it%' },
          { column: 'id', operator: '<', value: 6 },
        ])
      ).rows,
      [[2], [5]],
    );
    assert.deepEqual((await run([{ column: 'note', operator: 'is_null' }])).rows, [[5], [10], [15], [20]]);
    assert.deepEqual(
      (
        await run([
          { column: 'id', operator: 'in', value: [3, 4] },
          { column: 'amount', operator: '>', value: 35 },
        ])
      ).rows,
      [[4]],
    );
    assert.deepEqual((await run([{ column: 'status', operator: '=', value: "open' OR '1'='1" }])).rows, []);
  });

  test('quoted identifiers reach the right columns', async () => {
    const result = await runQueryPlan(runner, { table: 'odd"table', select: ['x"; DROP VIEW orders; --', 'select'] }, tables);
    assert.deepEqual(result.rows, [[1, 'a']]);
    assert.deepEqual((await runner.run('SELECT count(*) FROM orders', tables)).rows, [[20]]);
  });
});
