import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createOrganization, type Database, DatabaseBlobStore, tables, uploadDocuments } from '@docagent/core';
import { openTestDatabase } from '@docagent/core/testing';
import { eq } from 'drizzle-orm';
import { type AgentEvent, NO_TURN_USAGE, TurnEventLog, type TurnFrame, TurnStore } from '../src/index.ts';

let database: Database;
let turnId: string;
let newTurn: () => Promise<string>;

/** A log that counts its INSERTs, and fails the next one when asked. */
class CountingLog extends TurnEventLog {
  inserts = 0;
  failNext = false;

  override async appendFrames(frames: TurnFrame[]): Promise<void> {
    this.inserts++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the database went away');
    }
    await super.appendFrames(frames);
  }
}

const token = (chunk: string): AgentEvent => ({ type: 'assistant_text_chunk', chunk, round_index: 0 });
const toolCalls: AgentEvent = {
  type: 'tool_calls',
  round_index: 0,
  tool_calls: [{ id: 'c1', name: 'get_thing', arguments: {} }],
};
const roundExecuted: AgentEvent = { type: 'round_executed', round_index: 0, thinking: '', tool_calls: [] };

before(async () => {
  database = await openTestDatabase();
  const orgId = (await createOrganization(database.db, { name: 'Frames' })).id;
  async function* content() {
    yield Buffer.from('Invoice 7');
  }
  const [doc] = await uploadDocuments(
    { db: database.db, blobs: new DatabaseBlobStore(database.db), scheduler: { scheduleTextExtraction: async () => {} } },
    { orgId, role: 'admin', userId: null },
    [{ name: 'invoice.txt', content: content() }],
    { maxFileBytes: 1e6, maxRequestBytes: 2e6, maxFiles: 1 },
  );
  const turnStore = new TurnStore(database.db, 300);
  newTurn = async () => (await turnStore.create(turnInput())).id;
  turnId = await newTurn();
  function turnInput(): Parameters<TurnStore['create']>[0] {
    return {
      orgId,
      userId: null,
      subject: { kind: 'document', id: doc?.id ?? '' },
      threadId: null,
      messages: [],
      workingState: {},
      settings: {
        model: 'openai:scripted',
        maxSteps: 10,
        strategy: 'react',
        autoApprove: false,
        autoApprovedTools: [],
        mentions: '',
      },
      progress: { steps: 0, text: '', thinking: '', executedRounds: [], usage: { ...NO_TURN_USAGE } },
    };
  }
});
after(async () => {
  await database.close();
});

test("a step's tokens and calls go to the log together; its end is written, with all before it, before it returns", async () => {
  const log = new CountingLog(database.db);
  const writer = log.writer(turnId);
  await writer.write(1, {
    type: 'turn_started',
    turn_id: turnId,
    thread_id: null,
    model: 'openai:scripted',
    max_steps: 10,
    strategy: 'react',
  });
  assert.equal(log.inserts, 1);
  for (let seq = 2; seq <= 21; seq++) await writer.write(seq, token(`word${seq} `));
  await writer.write(22, toolCalls);
  await writer.write(23, roundExecuted);
  assert.equal(log.inserts, 2, 'the tokens, the calls and the step end in one INSERT');
  const frames = await log.after(turnId, 0);
  assert.deepEqual(
    frames.map((f) => f.seq),
    Array.from({ length: 23 }, (_, i) => i + 1),
  );
  assert.equal(frames[1]?.event.type, 'assistant_text_chunk');
  assert.equal(frames.at(-1)?.event.type, 'round_executed');
  assert.equal(await log.lastSeq(turnId), 23);
});

test('a failed background write is reported by the next frame that waits for the log', async () => {
  const log = new CountingLog(database.db);
  const writer = log.writer(turnId);
  log.failNext = true;
  await writer.write(100, token('lost '));
  await assert.rejects(writer.write(101, roundExecuted), /the database went away/);
  await assert.rejects(writer.write(102, token('after ')), /the database went away/);
});

/** A log whose INSERTs wait until released, as a loaded database's do. */
class HeldLog extends TurnEventLog {
  batches: number[][] = [];
  written = 0;
  private gates: Array<() => void> = [];

  override async appendFrames(frames: TurnFrame[]): Promise<void> {
    this.batches.push(frames.map((f) => f.seq));
    await new Promise<void>((open) => this.gates.push(open));
    await super.appendFrames(frames);
    this.written++;
  }

  release(): void {
    for (const open of this.gates.splice(0)) open();
  }
}

const turnOfEvents = () => new Promise((resolve) => setImmediate(resolve));
async function until(check: () => boolean): Promise<void> {
  while (!check()) await turnOfEvents();
}

test('tokens that come while a background write is under way wait for their own batch: a slow log does not write them one by one', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const log = new HeldLog(database.db);
  const writer = log.writer(turnId);
  await writer.write(200, token('a '));
  await writer.write(201, token('b '));
  t.mock.timers.tick(200);
  await until(() => log.batches.length === 1);
  for (let seq = 202; seq <= 206; seq++) await writer.write(seq, token(`w${seq} `));
  log.release();
  await until(() => log.written === 1);
  await turnOfEvents();
  assert.deepEqual(log.batches, [[200, 201]], 'what came during the write waits for its batch time');
  t.mock.timers.tick(200);
  await until(() => log.batches.length === 2);
  assert.deepEqual(log.batches[1], [202, 203, 204, 205, 206]);
  log.release();
  const ended = writer.write(207, roundExecuted);
  await until(() => log.batches.length === 3);
  log.release();
  await ended;
  assert.deepEqual(log.batches[2], [207], 'a frame that waits for the log is written before it returns');
  assert.deepEqual(
    (await log.after(turnId, 199)).map((f) => f.seq),
    [200, 201, 202, 203, 204, 205, 206, 207],
  );
});

test("the background frames of every turn go in one INSERT, each turn's in its own log", async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const log = new HeldLog(database.db);
  const [first, second] = [await newTurn(), await newTurn()];
  const writers = [log.writer(first), log.writer(second)];
  for (let seq = 1; seq <= 3; seq++) {
    for (const writer of writers) await writer.write(seq, token(`w${seq} `));
  }
  t.mock.timers.tick(200);
  await until(() => log.batches.length === 1);
  log.release();
  await until(() => log.written === 1);
  assert.deepEqual(log.batches, [[1, 2, 3, 1, 2, 3]], 'one INSERT for both turns');
  for (const turn of [first, second]) {
    assert.deepEqual(
      (await log.after(turn, 0)).map((f) => f.seq),
      [1, 2, 3],
    );
  }
  // A step's end takes its turn's frames out of the batch for its commit; the other turn's stay.
  await writers[0]?.write(4, token('w4 '));
  await writers[1]?.write(4, token('w4 '));
  assert.deepEqual(
    (await writers[0]?.stage([{ seq: 5, event: roundExecuted }]))?.map((f) => f.seq),
    [4, 5],
  );
  t.mock.timers.tick(200);
  await until(() => log.batches.length === 2);
  log.release();
  await until(() => log.written === 2);
  assert.deepEqual(log.batches[1], [4], "only the other turn's frame is left to the batch");
});

test('a shared INSERT that fails is tried turn by turn: only the turn whose frames cannot be written hears of it', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const log = new TurnEventLog(database.db);
  const [kept, gone] = [await newTurn(), await newTurn()];
  const writers = { kept: log.writer(kept), gone: log.writer(gone) };
  await writers.kept.write(1, token('kept '));
  await writers.gone.write(1, token('gone '));
  // Its conversation deleted while it streamed: its frames break the log's reference to the turn.
  await database.db.delete(tables.agentTurns).where(eq(tables.agentTurns.id, gone));
  t.mock.timers.tick(200);
  await writers.kept.write(2, roundExecuted);
  assert.deepEqual(
    (await log.after(kept, 0)).map((f) => f.seq),
    [1, 2],
  );
  await assert.rejects(writers.gone.write(2, roundExecuted), /agent_turn_events|foreign key/i);
});

test("while a write is under way, frames that must be written first share the next one, and a step's end waits only for its own", async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const log = new HeldLog(database.db);
  const [busy, quiet, other] = [await newTurn(), await newTurn(), await newTurn()];
  const writers = { busy: log.writer(busy), quiet: log.writer(quiet), other: log.writer(other) };
  await writers.busy.write(1, token('held '));
  t.mock.timers.tick(200);
  await until(() => log.batches.length === 1);
  // The write under way holds none of this turn's frames: its step commits without waiting for it.
  assert.deepEqual(
    (await writers.quiet.stage([{ seq: 1, event: roundExecuted }])).map((f) => f.seq),
    [1],
  );
  const ends = [writers.quiet.write(2, roundExecuted), writers.other.write(1, roundExecuted)];
  await turnOfEvents();
  log.release();
  await until(() => log.batches.length === 2);
  log.release();
  await Promise.all(ends);
  assert.deepEqual(log.batches, [[1], [2, 1]], 'the two frames went in one write after the one under way');
});

test("a batch past its size goes in several writes, one after another, each turn's frames whole in one", async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const log = new HeldLog(database.db);
  const turns = [await newTurn(), await newTurn(), await newTurn()];
  const writers = turns.map((turn) => log.writer(turn));
  for (const writer of writers) {
    for (let seq = 1; seq <= 100; seq++) await writer.write(seq, token(`w${seq} `));
  }
  // A frame that must be written before it goes out, of the turn whose frames come last.
  let ended = false;
  const end = writers[2]?.write(101, roundExecuted).then(() => {
    ended = true;
  });
  await until(() => log.batches.length === 1);
  log.release();
  await until(() => log.batches.length === 2);
  assert.equal(ended, false, 'its write waits for its own frames, which did not fit in the first');
  log.release();
  await end;
  assert.deepEqual(
    log.batches.map((batch) => batch.length),
    [200, 101],
  );
  for (const [i, turn] of turns.entries()) assert.equal((await log.after(turn, 0)).length, i === 2 ? 101 : 100);
});
