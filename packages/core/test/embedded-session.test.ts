import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { analyzeEachTable } from '../src/db/database.ts';
import { EMBEDDED_PORT, type EmbeddedPostgres, startEmbeddedPostgres } from '../src/db/embedded/embedded-postgres.ts';

/**
 * The embedded database's session server: PGlite is one session, and node-postgres clients
 * take turns on it as if each had its own.
 */

let embedded: EmbeddedPostgres;

const client = async () => {
  const c = new pg.Client({ host: embedded.socketFolder, port: EMBEDDED_PORT, user: 'postgres', database: 'postgres' });
  await c.connect();
  return c;
};

before(async () => {
  embedded = await startEmbeddedPostgres({});
  const setup = await client();
  await setup.query('create table notes (id int primary key, body text not null)');
  await setup.end();
});

after(async () => {
  await embedded?.close();
});

test('two clients querying at once each get their own answers (their extended-protocol requests never interleave)', async () => {
  const [a, b] = await Promise.all([client(), client()]);
  try {
    const ask = (c: pg.Client, n: number) =>
      c.query<{ n: number; s: string }>('select $1::int as n, $2::text as s', [n, `v${n}`]);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => ask(i % 2 ? a : b, i)));
    assert.deepEqual(
      answers.map((answer) => answer.rows),
      answers.map((_, i) => [{ n: i, s: `v${i}` }]),
    );
  } finally {
    await Promise.all([a.end(), b.end()]);
  }
});

test("a transaction sees no other client's statements, and the other client's wait ends at its commit", async () => {
  const [a, b] = await Promise.all([client(), client()]);
  try {
    await a.query('begin');
    await a.query(`insert into notes values (1, 'inside')`);
    const order: string[] = [];
    const fromB = b.query('select count(*)::int as n from notes').then((r) => {
      order.push('b read');
      return r.rows[0].n as number;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual((await a.query('select body from notes')).rows, [{ body: 'inside' }]);
    order.push('a commits');
    await a.query('commit');
    assert.equal(await fromB, 1, 'b reads after the commit, and sees the row');
    assert.deepEqual(order, ['a commits', 'b read']);
  } finally {
    await a.query('delete from notes');
    await Promise.all([a.end(), b.end()]);
  }
});

test('a client that goes away inside a transaction has it rolled back, and the others go on', async () => {
  const a = await client();
  const b = await client();
  try {
    await a.query('begin');
    await a.query(`insert into notes values (2, 'never committed')`);
    const waiting = b.query('select count(*)::int as n from notes');
    a.on('error', () => {});
    a.connection.stream.destroy();
    assert.deepEqual((await waiting).rows, [{ n: 0 }]);
  } finally {
    await b.end();
  }
});

test("two clients' statements of one name are each their own, and a client's are closed when it goes away", async () => {
  const [a, b] = await Promise.all([client(), client()]);
  const named = async () => (await b.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0]?.n;
  try {
    const run = () =>
      Promise.all([
        a.query({ name: 'same', text: 'select $1::int + 1 as n', values: [1] }),
        b.query({ name: 'same', text: "select 'b' || $1::text as s", values: ['x'] }),
        // Describe and Close name statements too: a result in rows mode describes its statement.
        a.query({ name: 'same', text: 'select $1::int + 1 as n', values: [41], rowMode: 'array' }),
      ]);
    // The second round binds what the first parsed: each client must find its own statement.
    for (let round = 0; round < 2; round++) {
      const [fromA, fromB, arrays] = await run();
      assert.deepEqual(fromA.rows, [{ n: 2 }]);
      assert.deepEqual(fromB.rows, [{ s: 'bx' }]);
      assert.deepEqual(arrays.rows, [[42]]);
    }
    assert.equal(await named(), 2);
    await a.end();
    let left = await named();
    for (let tries = 0; left !== 1 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      left = await named();
    }
    assert.equal(left, 1, "only b's statement is left in the session");
  } finally {
    await b.end();
  }
});

test('a statement of many megabytes arrives whole, however the socket cuts it', async () => {
  const c = await client();
  try {
    // 24 MB of text in one Bind message, which the socket delivers in hundreds of pieces. Joining
    // them once a piece made this take seconds (and a 45 MB CSV's text over a minute).
    const body = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(700_000);
    await c.query('insert into notes values (3, $1)', [body]);
    const { rows } = await c.query('select length(body)::int as n, md5(body) as h from notes where id = 3');
    const { rows: expected } = await c.query('select md5($1) as h', [body]);
    assert.deepEqual(rows, [{ n: body.length, h: expected[0].h }]);
  } finally {
    await c.query('delete from notes');
    await c.end();
  }
});

test('a message declaring an impossible length closes that connection only', async () => {
  const { createConnection } = await import('node:net');
  const raw = createConnection(`${embedded.socketFolder}/.s.PGSQL.${EMBEDDED_PORT}`);
  await new Promise((resolve) => raw.once('connect', resolve));
  const closed = new Promise((resolve) => raw.once('close', resolve));
  const startup = Buffer.alloc(8);
  startup.writeInt32BE(2, 0);
  raw.write(startup);
  await closed;
  const c = await client();
  try {
    assert.deepEqual((await c.query('select 1 as one')).rows, [{ one: 1 }]);
  } finally {
    await c.end();
  }
});

test('statistics are made by one ANALYZE per table: the session serves other clients between them, not after the whole database', async () => {
  const setup = await client();
  try {
    await setup.query(
      'create schema jobs; create table jobs.queue (id int); insert into jobs.queue select generate_series(1, 100)',
    );
    const unanalyzed = async () =>
      (
        await setup.query<{ name: string }>(
          `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and c.reltuples < 0 order by 1`,
        )
      ).rows.map((r) => r.name);
    assert.deepEqual(await unanalyzed(), ['notes', 'queue'], 'never analyzed before');
    const pool = new pg.Pool({
      host: embedded.socketFolder,
      port: EMBEDDED_PORT,
      user: 'postgres',
      database: 'postgres',
      max: 1,
    });
    const sent: string[] = [];
    const query = pool.query.bind(pool);
    pool.query = ((text: string, ...rest: unknown[]) => {
      sent.push(text);
      return (query as (...args: unknown[]) => unknown)(text, ...rest);
    }) as typeof pool.query;
    try {
      await analyzeEachTable(pool);
    } finally {
      await pool.end();
    }
    assert.deepEqual(await unanalyzed(), []);
    assert.deepEqual(sent.slice(1).sort(), ['analyze jobs.queue', 'analyze public.notes']);
  } finally {
    await setup.end();
  }
});
