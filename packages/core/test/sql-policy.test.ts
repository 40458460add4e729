import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { checkSqlPolicy, ExecutionFailure, SQL_POLICY_RULE } from '../src/index.ts';

interface CorpusCase {
  sql: string;
  verdict: 'allowed' | 'refused' | 'syntax_error';
  reason: string;
}

const corpus = JSON.parse(readFileSync(new URL('./fixtures/sql-attack-corpus.json', import.meta.url), 'utf8')) as {
  tables: string[];
  cases: CorpusCase[];
};

let instance: DuckDBInstance;
let connection: DuckDBConnection;

before(async () => {
  // The policy only parses: a bare database with no tables and full access is its worst case.
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
});

after(() => {
  connection.closeSync();
  instance.closeSync();
});

async function verdict(sql: string): Promise<{ verdict: CorpusCase['verdict']; message: string }> {
  try {
    await checkSqlPolicy(connection, sql, corpus.tables);
    return { verdict: 'allowed', message: '' };
  } catch (error) {
    assert.ok(error instanceof ExecutionFailure, `not an ExecutionFailure: ${error}`);
    assert.ok(error.kind === 'policy' || error.kind === 'error', `unexpected kind ${error.kind}`);
    return { verdict: error.kind === 'policy' ? 'refused' : 'syntax_error', message: error.message };
  }
}

test('the attack corpus is large and covers each verdict', () => {
  assert.ok(corpus.cases.length >= 40, `${corpus.cases.length} cases`);
  for (const kind of ['allowed', 'refused', 'syntax_error'] as const) {
    assert.ok(
      corpus.cases.some((c) => c.verdict === kind),
      `no ${kind} case`,
    );
  }
});

test('every statement of the attack corpus gets its verdict', async () => {
  const wrong: string[] = [];
  for (const c of corpus.cases) {
    const got = await verdict(c.sql);
    if (got.verdict !== c.verdict)
      wrong.push(`${JSON.stringify(c.sql)}: expected ${c.verdict} (${c.reason}), got ${got.verdict} ${got.message}`);
  }
  assert.deepEqual(wrong, []);
});

test('a refusal says what was wrong and what is allowed, with the seed code', async () => {
  const error = await checkSqlPolicy(connection, "SELECT * FROM read_csv('/etc/passwd')", corpus.tables).catch((e: unknown) => e);
  assert.ok(error instanceof ExecutionFailure);
  assert.equal(error.code, 'SQL_POLICY_VIOLATION');
  assert.match(error.message, /read_csv\(\) is not allowed/);
  assert.ok(error.message.includes(SQL_POLICY_RULE));
  assert.match(SQL_POLICY_RULE, /^one SELECT statement .* over the dataset's tables/);
});

test('an unknown table is named along with the tables that exist', async () => {
  const { message } = await verdict('SELECT * FROM invoices');
  assert.match(message, /"invoices" is not one of the dataset's tables \(orders, customers, keys\)/);
});

test("a syntax error comes back with DuckDB's own message", async () => {
  const error = await checkSqlPolicy(connection, 'SELECT * FORM orders', corpus.tables).catch((e: unknown) => e);
  assert.ok(error instanceof ExecutionFailure);
  assert.equal(error.kind, 'error');
  assert.match(error.message, /^Parser Error: syntax error at or near "orders"/);
});

test('IMPORT DATABASE is refused before anything reads its folder', async () => {
  // The statement extractor would expand IMPORT and read schema.sql: the policy never lets it.
  const { verdict: got, message } = await verdict("IMPORT DATABASE '/nonexistent-export'");
  assert.equal(got, 'refused');
  assert.doesNotMatch(message, /schema\.sql|IO Error/);
});
