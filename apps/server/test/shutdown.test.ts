import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openTestDatabase } from '@docagent/core/testing';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createModelRegistry } from '../src/llm.ts';

test('closing the app (what SIGTERM does) lets an in-flight request finish and refuses new ones', async () => {
  const database = await openTestDatabase();
  const scheduler = {
    scheduleTextExtraction: async () => {
      throw new Error('this test uploads nothing');
    },
    scheduleAutoCreate: async () => {
      throw new Error('this test starts no auto-create');
    },
    scheduleWaitingExtractions: async () => {
      throw new Error('this test configures no provider');
    },
    scheduleTableIngest: async () => {
      throw new Error('this test makes no table');
    },
    scheduleBatchItems: async () => {
      throw new Error('this test runs no batch');
    },
    scheduleWebhookAttempts: async () => {
      throw new Error('this test has no webhooks');
    },
  };
  const config = loadConfig({});
  const llm = createModelRegistry(database, config);
  const app = await buildApp({ config, db: database.db, scheduler, llm, logger: false });
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered = () => {};
  const inHandler = new Promise<void>((resolve) => {
    entered = resolve;
  });
  app.get('/slow', async () => {
    entered();
    await gate;
    return { finished: true };
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  const inFlight = fetch(`${address}/slow`);
  await inHandler;
  const closed = app.close();
  release();
  const response = await inFlight;
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { finished: true });
  await closed;
  await assert.rejects(fetch(`${address}/health`), 'no new connections after close');
  await database.close();
});
