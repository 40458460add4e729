import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  type Database,
  DatabaseBlobStore,
  EventBus,
  type ExtractFn,
  runTextExtraction,
  selectRows,
  uploadDocuments,
} from '@docagent/core';
import { openTestDatabase } from '@docagent/core/testing';
import { type FakeLlmServer, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { ZodApp } from '../src/http/types.ts';
import { startJobQueue } from '../src/jobs.ts';
import { createModelRegistry } from '../src/llm.ts';
import { bearer, seedMember } from './helpers.ts';

/**
 * The statements one step of a turn may send, counted, not timed (issue 21). A step of the react
 * strategy that calls one cheap read-only tool (`list_tags`) is made of:
 * - no statement for the model call: its usage record (an INSERT into the ledger) is carried by
 *   the step's commit. The organization's model choices and usage limit are read once per run of
 *   the turn (LlmGateway.forRun); the month's spend only when a limit is set, which it is not here;
 * - the decision: the organization's and the person's permission rules, read for every batch so
 *   that a rule added while a turn runs applies to its next call, with the turn's stop flag for
 *   the stop check before the batch's first call (1; the check before the step takes the flag the
 *   last commit read back);
 * - the tool's own query (1: the tags with their count);
 * - the step's commit (1: the turn's update, carrying the frames' INSERT into the replay log, the
 *   usage record's INSERT and the run record's upsert as WITH clauses; a turn on a thread adds the
 *   thread's writes, in a transaction).
 * The subject's context for the system message (the document, its page texts, its extraction
 * results) is read once per run and again only after a step whose calls wrote something
 * (SectionCache). Transaction control (BEGIN, COMMIT) is counted apart: a step runs none here.
 */
const STEP_BUDGET = 3;
/**
 * A whole turn of three steps (two calls of list_tags, then an answer) through `POST .../chat`:
 * authentication (1: the token with its creator's membership in the organization; its last use is
 * written only when it is a minute old), the subject (1), the model choices (2), opening the turn
 * (1: its run record comes with its first commit, and a turn just opened needs no stop check), the
 * system message's reads (2: the document with the start of its text, and its extraction
 * results), two steps of STEP_BUDGET, the answer's commit with its usage record and last frames
 * (1), and the webhooks lookup of its end (1).
 */
const TURN_BUDGET = 15;

const FEW_STEPS = 2;
const MORE_STEPS = 6;

let fake: FakeLlmServer;
let app: ZodApp;
let database: Database;
let close: () => Promise<void>;
let counting = false;
let statements: string[] = [];
let orgId: string;
let token: string;
let documentId: string;

const toolOutputs = (r: RecordedRequest) =>
  (r.body.input as Array<{ type?: string }> | undefined)?.filter((item) => item.type === 'function_call_output').length ?? 0;

/** The system message of an OpenAI Responses request: its first input item. */
const systemOf = (r: RecordedRequest) => {
  const [first] = r.body.input as Array<{ role: string; content: string }>;
  return first?.role === 'system' || first?.role === 'developer' ? first.content : '';
};

before(async () => {
  fake = await startFakeLlm();
  database = await openTestDatabase({
    logQuery: (query) => {
      if (counting) statements.push(query);
    },
  });
  const config = loadConfig({
    DOCAGENT_WORKERS: '0',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
    // No heartbeat or sweep of turns falls within a counted turn.
    DOCAGENT_TURN_HEARTBEAT_SECONDS: '3600',
  });
  const llm = createModelRegistry(database, config);
  const events = new EventBus();
  const queue = await startJobQueue(database, config, config.workers, llm, undefined, events);
  app = await buildApp({ config, db: database.db, scheduler: queue, llm, logger: false, events });
  await app.ready();
  close = async () => {
    await app.close();
    await queue.stop();
    await database.close();
  };
  const member = await seedMember(database, 'budget');
  orgId = member.org.id;
  token = member.token;
  const access = { orgId, role: 'admin' as const, userId: member.user.id };
  const blobs = new DatabaseBlobStore(database.db);
  async function* bytes() {
    yield Buffer.from('INVOICE 2024-117\nBill to: Acme GmbH\nTotal due: 1,250.00 EUR');
  }
  const [document] = await uploadDocuments(
    { db: database.db, blobs, scheduler: { scheduleTextExtraction: async () => {} } },
    access,
    [{ name: 'invoice.txt', content: bytes() }],
    { maxFileBytes: 1e6, maxRequestBytes: 2e6, maxFiles: 1 },
  );
  documentId = document?.id ?? '';
  const extract: ExtractFn = async ({ bytes }) => ({
    pageCount: 1,
    pages: [{ page: 1, text: new TextDecoder().decode(bytes), width: 1, height: 1, engine: 'plain', items: [] }],
  });
  await runTextExtraction({ db: database.db, blobs, extract }, documentId, { isLast: true });
});
after(async () => {
  await close();
  await fake.close();
});

/** Runs a turn of `toolSteps` steps that each call list_tags, then an answer; answers its statements. */
async function countTurn(toolSteps: number): Promise<string[]> {
  fake.setHandler((r) =>
    toolOutputs(r) < toolSteps ? { toolCalls: [{ name: 'list_tags', arguments: {} }] } : { text: 'Checked.' },
  );
  statements = [];
  counting = true;
  const res = await app.inject({
    method: 'POST',
    url: `/v0/orgs/${orgId}/documents/${documentId}/chat`,
    headers: bearer(token),
    payload: { messages: [{ role: 'user', content: 'Check the tags.' }], stream: true, max_steps: 10 },
  });
  counting = false;
  assert.equal(res.statusCode, 200, res.body);
  assert.match(res.body, /"type":"done"/);
  return statements;
}

/** BEGIN and COMMIT, counted apart: transactions per step are asserted on their own. */
const TRANSACTION_CONTROL = /^(begin|commit|rollback)\b/i;
/**
 * Frames written on their own: the turn's first, and the background batches of a step's calls and
 * results, which are written only when a step takes longer than the batch time (turn-events.ts);
 * not counted, as no count here may depend on time. A step's commit writes its frames in itself.
 */
const FRAMES_ON_THEIR_OWN = /^insert into "agent_turn_events"/;

test('a step of a turn stays within its statement budget', async (t) => {
  await countTurn(FEW_STEPS); // warm-up: what a process reads once (e.g. its first session lookup) is no turn's
  const few = await countTurn(FEW_STEPS);
  const more = await countTurn(MORE_STEPS);
  const counted = (statements: string[]) =>
    statements.filter((q) => !TRANSACTION_CONTROL.test(q) && !FRAMES_ON_THEIR_OWN.test(q));
  const perStep = (counted(more).length - counted(few).length) / (MORE_STEPS - FEW_STEPS);
  const transactionsPerStep =
    (more.filter((q) => /^begin\b/i.test(q)).length - few.filter((q) => /^begin\b/i.test(q)).length) / (MORE_STEPS - FEW_STEPS);
  t.diagnostic(
    `${perStep} statements a step (${transactionsPerStep} transactions), ${counted(few).length} a turn of ${FEW_STEPS + 1} steps`,
  );
  assert.ok(
    perStep <= STEP_BUDGET,
    `a step now makes ${perStep} statements, budget ${STEP_BUDGET}: find the new one among a step's statements below and make it once per turn (TurnRun, SectionCache, LlmGateway.forRun) or part of the step's commit (TurnJournal.commit); raise STEP_BUDGET only with the reason written in its comment.\n${counted(more).slice(counted(few).length).join('\n')}`,
  );
  assert.ok(
    transactionsPerStep <= 1,
    `a step now runs ${transactionsPerStep} transactions: its writes (turn state, run record, frames, messages) go in one, TurnJournal.commit's.`,
  );
  assert.ok(
    counted(few).length <= TURN_BUDGET,
    `a turn of ${FEW_STEPS + 1} steps now makes ${counted(few).length} statements, budget ${TURN_BUDGET}: see which reads of its start or end are new (below); raise TURN_BUDGET only with the reason written in its comment.\n${counted(few).join('\n')}`,
  );
});

test('every commit of a turn is one statement text, whatever its step wrote: it is prepared once (step-commit.ts)', async () => {
  const commits = (await countTurn(FEW_STEPS)).filter((q) => /^with "step_frames"/.test(q));
  // Steps with and without usage, messages and frames of their own, and the answer's commit.
  assert.equal(commits.length, FEW_STEPS + 1);
  assert.equal(new Set(commits).size, 1, `the commits' texts differ:\n${[...new Set(commits)].join('\n\n')}`);
});

test('what a call of the turn changed shows in the next step: the subject is read again after a write', async () => {
  fake.setHandler((r) => {
    switch (toolOutputs(r)) {
      case 0:
        return { toolCalls: [{ name: 'list_tags', arguments: {} }] };
      case 1:
        return { toolCalls: [{ name: 'update_document', arguments: { document_name: 'renamed-invoice.txt' } }] };
      default:
        return { text: 'Renamed.' };
    }
  });
  const first = fake.requests.length;
  const res = await app.inject({
    method: 'POST',
    url: `/v0/orgs/${orgId}/documents/${documentId}/chat`,
    headers: bearer(token),
    payload: { messages: [{ role: 'user', content: 'Rename it.' }], auto_approve: true },
  });
  assert.equal(res.statusCode, 200, res.body);
  const systems = fake.requests.slice(first).map(systemOf);
  assert.equal(systems.length, 3);
  assert.ok(systems.slice(0, 2).every((text) => text.includes('Current document: "invoice.txt"')));
  assert.match(systems[2] ?? '', /Current document: "renamed-invoice\.txt"/);
});

test("every model call of a turn is in the usage ledger, written by its step's commit", async () => {
  const agentCalls = async () =>
    (
      await selectRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from usage_ledger where org_id = ${orgId} and operation = 'agent' and document_id = ${documentId} and input_tokens > 0`,
      )
    )[0]?.n ?? 0;
  const before = await agentCalls();
  const first = fake.requests.length;
  await countTurn(FEW_STEPS);
  assert.equal(fake.requests.length - first, FEW_STEPS + 1);
  assert.equal((await agentCalls()) - before, FEW_STEPS + 1, 'one entry for each call: the steps and the answer');
});
