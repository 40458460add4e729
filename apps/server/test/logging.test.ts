import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Database, selectRows } from '@docagent/core';
import { openTestDatabase } from '@docagent/core/testing';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { loggerOptions, serializeError } from '../src/http/logging.ts';
import type { ZodApp } from '../src/http/types.ts';
import { createModelRegistry } from '../src/llm.ts';
import { bearer, seedMember } from './helpers.ts';

/** Stands for a person's content: it may be in a request, never in a log line. */
const MARKER = 'user-content-marker-5b1e';

let database: Database;
let app: ZodApp;
let token: string;
const lines: string[] = [];

before(async () => {
  database = await openTestDatabase();
  const config = loadConfig({ DOCAGENT_WORKERS: '0' });
  app = await buildApp({
    config,
    db: database.db,
    scheduler: {
      scheduleTextExtraction: async () => {},
      scheduleAutoCreate: async () => {},
      scheduleWaitingExtractions: async () => {},
      scheduleTableIngest: async () => {},
      scheduleBatchItems: async () => {},
      scheduleWebhookAttempts: async () => {},
    },
    llm: createModelRegistry(database, config),
    // The server's own logger configuration, writing here instead of to stdout.
    logger: { ...loggerOptions('info'), stream: { write: (line: string) => void lines.push(line) } },
  });
  await app.ready();
  token = (await seedMember(database, 'logged')).token;
  // Every write to preferences fails inside the database, with the statement's values at hand.
  await selectRows(
    database.db,
    sql.raw(`create function refuse_preferences() returns trigger language plpgsql as $$
      begin raise exception 'preferences are read-only in this test'; end $$`),
  );
  await selectRows(
    database.db,
    sql.raw(
      'create trigger refuse_preferences before insert or update on user_preferences for each row execute function refuse_preferences()',
    ),
  );
});
after(async () => {
  await app.close();
  await database.close();
});

test('a failed statement is logged with its SQL and the error, never its values; request bodies are never logged', async () => {
  const failed = await app.inject({
    method: 'PUT',
    url: '/v0/account/preferences/theme',
    headers: bearer(token),
    payload: { value: { note: MARKER } },
  });
  assert.equal(failed.statusCode, 500, failed.body);
  const refused = await app.inject({
    method: 'PUT',
    url: '/v0/account/preferences/theme',
    headers: bearer(token),
    payload: { value: { note: MARKER }, extra: MARKER },
  });
  assert.equal(refused.statusCode, 400, refused.body);
  const malformed = await app.inject({
    method: 'PUT',
    url: '/v0/account/preferences/theme',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload: `{"value": "${MARKER}`,
  });
  assert.equal(malformed.statusCode, 400, malformed.body);

  const logged = lines.join('');
  const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request failed');
  assert.ok(failure, `the failure is logged; the log is:\n${logged}`);
  assert.match(failure.err.message, /insert into "user_preferences"/, 'the SQL text is logged');
  assert.match(failure.err.message, /preferences are read-only in this test/, "the database's message is logged");
  assert.doesNotMatch(logged, new RegExp(MARKER), `no user content in the log:\n${logged}`);
  assert.doesNotMatch(failure.err.stack, /params:/);
});

test("a failed provider call's request body (the conversation) is not logged with its error", () => {
  // The AI SDK's APICallError carries the request it sent as `requestBodyValues`.
  const providerError = Object.assign(new Error('Internal server error'), {
    url: 'http://provider.test/v1/responses',
    requestBodyValues: { input: [{ role: 'user', content: MARKER }] },
    statusCode: 500,
  });
  for (const error of [providerError, new Error('the agent turn failed', { cause: providerError })]) {
    const serialized = JSON.stringify(serializeError(error));
    assert.match(serialized, /Internal server error/);
    assert.doesNotMatch(serialized, new RegExp(MARKER));
  }
});
