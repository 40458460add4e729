import assert from 'node:assert/strict';
import { test } from 'node:test';
import { schemaFieldRows, shapeOfResult } from '../src/chat/results/resultShapes.ts';

const responseFormat = {
  type: 'json_schema',
  json_schema: {
    name: 'invoice',
    schema: {
      type: 'object',
      properties: {
        invoice_number: { type: 'string', description: 'As printed' },
        due_date: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
        lines: {
          type: 'array',
          items: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
        },
      },
      required: ['invoice_number'],
    },
  },
};

test('a schema is shown as its fields, nested ones after their parent, types in words', () => {
  assert.deepEqual(schemaFieldRows(responseFormat), [
    { name: 'invoice_number', type: 'text', description: 'As printed', required: true },
    { name: 'due_date', type: 'date or empty', description: '', required: false },
    { name: 'lines', type: 'list of objects', description: '', required: false },
    { name: 'lines[].amount', type: 'number', description: '', required: true },
  ]);
  assert.deepEqual(schemaFieldRows(JSON.stringify(responseFormat)).length, 4, 'as a string of JSON too');
  assert.deepEqual(schemaFieldRows('not json'), []);
  assert.deepEqual(schemaFieldRows({ type: 'text' }), []);
});

test('results are recognised by their keys: schema, prompt, extraction, change, lists, tags, messages', () => {
  const created = shapeOfResult(
    { message: 'Schema created', schema_revid: 'r1', schema_id: 's1', schema_version: 1, name: 'Invoice' },
    { name: 'Invoice', response_format: responseFormat },
  );
  assert.equal(created.kind, 'schema');
  assert.equal(created.kind === 'schema' && created.responseFormat, responseFormat, 'the fields come from the call');

  const prompt = shapeOfResult(
    { prompt_revid: 'p1', prompt_id: 'pp', prompt_version: 2, name: 'Invoice fields', schema_revid: null, model: null },
    {},
  );
  assert.deepEqual(prompt, {
    kind: 'prompt',
    promptRevid: 'p1',
    name: 'Invoice fields',
    version: 2,
    schemaRevid: null,
    model: null,
    message: null,
  });

  const change = shapeOfResult(
    { prompt_revid: 'p1', path: 'total', previous_value: 1250.5, value: 1300, updated_llm_result: { total: 1300 } },
    {},
  );
  assert.deepEqual(change.kind === 'extraction' && change.change, { path: 'total', previous: 1250.5, value: 1300 });

  const list = shapeOfResult(
    { tags: [{ id: 't1', name: 'urgent', color: '#f00', description: null }], total_count: 3, skip: 0 },
    {},
  );
  assert.deepEqual(list, { kind: 'list', what: 'tags', items: [{ href: 'tag:t1', name: 'urgent', detail: null }], total: 3 });

  assert.equal(shapeOfResult({ message: 'Tag created', id: 't1', name: 'urgent', color: '#f00' }, {}).kind, 'tag');
  assert.deepEqual(shapeOfResult({ message: 'Prompt p deleted', prompt_id: 'p' }, {}), {
    kind: 'message',
    text: 'Prompt p deleted',
  });
  assert.deepEqual(shapeOfResult({ rows: 3 }, {}), { kind: 'unknown' });
  assert.deepEqual(shapeOfResult(null, {}), { kind: 'unknown' });
});

test("a query's rows are a table of the first 20, with the count and the SQL (the call's, or the compiled one)", () => {
  const rows = Array.from({ length: 25 }, (_row, index) => [`region ${index}`, index * 10]);
  const sql = 'SELECT region, sum(amount) AS total FROM sales GROUP BY region';
  const shape = shapeOfResult(
    {
      run_id: 'r1',
      columns: [
        { name: 'region', type: 'VARCHAR' },
        { name: 'total', type: 'DOUBLE' },
      ],
      rows,
      row_count: 25,
      truncated: null,
      exec_time_ms: 3,
    },
    { sql },
  );
  assert.deepEqual(shape, { kind: 'rows', columns: ['region', 'total'], rows: rows.slice(0, 20), rowCount: 25, sql });

  const planned = shapeOfResult(
    { run_id: 'r2', columns: [{ name: 'n', type: 'BIGINT' }], rows: [[4]], row_count: 1, compiled_sql: 'SELECT count(*) AS n' },
    { table: 'sales' },
  );
  assert.equal(planned.kind === 'rows' && planned.sql, 'SELECT count(*) AS n');
});
