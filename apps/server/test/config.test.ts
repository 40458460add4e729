import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../src/config.ts';

const URL = 'postgres://docagent@db.example:5432/docagent';

test('PostgreSQL gets named statements unless DATABASE_NAMED_STATEMENTS says false (a pooler that loses them)', () => {
  assert.deepEqual(loadConfig({ DATABASE_URL: URL }).database, { kind: 'postgres', url: URL, namedStatements: true });
  assert.deepEqual(loadConfig({ DATABASE_URL: URL, DATABASE_NAMED_STATEMENTS: 'false' }).database, {
    kind: 'postgres',
    url: URL,
    namedStatements: false,
  });
  assert.throws(
    () => loadConfig({ DATABASE_URL: URL, DATABASE_NAMED_STATEMENTS: 'sometimes' }),
    /DATABASE_NAMED_STATEMENTS: .*Fix these environment variables/,
  );
});
