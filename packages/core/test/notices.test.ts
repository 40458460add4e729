import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { postgresNotices } from '../src/db/notices.ts';
import type { Database } from '../src/index.ts';
import { openTestDatabase, testDatabaseKind } from '../src/testing/test-database.ts';

let database: Database;

before(async () => {
  database = await openTestDatabase();
});
after(async () => {
  await database.close();
});

/**
 * Sends `payload` until `heard` has it: a listener's LISTEN goes out once its connection is up,
 * and a notice sent before that is lost, as the contract says.
 */
async function sendUntilHeard(send: () => Promise<void>, heard: string[], payload: string): Promise<void> {
  for (let attempt = 0; attempt < 300 && !heard.includes(payload); attempt++) {
    await send();
    await sleep(50);
  }
  assert.ok(heard.includes(payload), `"${payload}" was not heard: ${JSON.stringify(heard)}`);
}

test("the database's notices reach a listener of the channel, not one of another, and stop when it leaves", async () => {
  const heard: string[] = [];
  const other: string[] = [];
  const leave = database.notices.listen('docagent_test_a', (payload) => heard.push(payload));
  database.notices.listen('docagent_test_b', (payload) => other.push(payload));
  await sendUntilHeard(() => database.notices.notify('docagent_test_a', 'turn-1'), heard, 'turn-1');
  assert.deepEqual(other, []);
  leave();
  const before = heard.length;
  await database.notices.notify('docagent_test_a', 'turn-2');
  await sendUntilHeard(() => database.notices.notify('docagent_test_b', 'marker'), other, 'marker');
  assert.equal(heard.length, before, 'a listener that left hears nothing more');
});

test('a listener that throws is reported, and the others and later notices still arrive', async () => {
  const heard: string[] = [];
  database.notices.listen('docagent_test_c', () => {
    throw new Error('a broken listener');
  });
  database.notices.listen('docagent_test_c', (payload) => heard.push(payload));
  await sendUntilHeard(() => database.notices.notify('docagent_test_c', 'one'), heard, 'one');
  await sendUntilHeard(() => database.notices.notify('docagent_test_c', 'two'), heard, 'two');
});

test('a channel that is not a plain lower-case name is refused before anything is sent', async () => {
  await assert.rejects(database.notices.notify('Stops; drop table x', '1'), /lower-case letters and underscores/);
  assert.throws(() => database.notices.listen('a-b', () => {}), /lower-case letters and underscores/);
});

test("on PostgreSQL a notice reaches another process's listener, which listens again after losing its connection", async (ctx) => {
  if (testDatabaseKind() !== 'postgres') return ctx.skip('the embedded database is held by one process');
  // Another process's notices: a listening connection of its own.
  const elsewhere = postgresNotices(database.pool, database.connection);
  try {
    const heard: string[] = [];
    elsewhere.listen('docagent_test_stops', (payload) => heard.push(payload));
    const send = (payload: string) => () => database.notices.notify('docagent_test_stops', payload);
    await sendUntilHeard(send('first'), heard, 'first');
    const { rowCount } = await database.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where query = 'listen docagent_test_stops' and datname = current_database()`,
    );
    assert.equal(rowCount, 1, 'the listening connection was found and ended');
    await sendUntilHeard(send('after'), heard, 'after');
  } finally {
    await elsewhere.close();
  }
});
