import { createPrompt, type Database } from '@docagent/core';
import type { FakeReply, RecordedRequest } from '@docagent/fake-llm';
import { sql } from 'drizzle-orm';
import { type BenchOptions, startAgentStack } from './agent-stack.ts';
import { type ApiClient, call, orgPath } from './client.ts';
import type { BenchAccount } from './database.ts';
import { median, nowMs, percentile, table } from './measure.ts';
import { stepOf } from './scripted-agent.ts';
import { type BenchServer, watchPeakRss } from './server.ts';

/**
 * The HTTP API on a database of a real size: 100,000 documents (one of 20 tags each) and
 * 10,000 threads, one of them 1,000 messages long, and one prompt's extraction results for
 * 50,000 of the documents, seeded with bulk SQL before the server starts. Each request is timed
 * one at a time, after a few untimed ones; the exports of the 50,000 results with the server's
 * peak memory while they stream.
 */

const DOCUMENTS = 100_000;
const THREADS = 10_000;
const TAGS = 20;
const LONG_THREAD_EXCHANGES = 250;
const LONG_THREAD_MESSAGES = (LONG_THREAD_EXCHANGES * 4).toLocaleString('en');
const RUNS = 30;
const WARM_UP = 3;
/** The results exported, each a document's; an export takes seconds, so fewer runs of it. */
const EXPORTED = 50_000;
const EXPORT_RUNS = 3;
const MODEL = 'openai:gpt-4.1-mini';

/** 24 hex characters, as the product's ids: a two-letter kind, then the number. */
const idSql = (prefix: string, n: string) => sql.raw(`'${prefix}' || lpad(to_hex(${n}), 22, '0')`);
const idOf = (prefix: string, n: number) => `${prefix}${n.toString(16).padStart(22, '0')}`;
const documentId = (n: number) => idOf('d0', n);
const tagId = (n: number) => idOf('t0', n);
const LONG_THREAD = idOf('c0', 1);
const INVOICE = 'INVOICE 2024-117\nBill to: Acme GmbH\nWidgets 12 x 50.00 EUR\nTotal due: 1,250.00 EUR';

/** A conversation of `exchanges` rounds: a question, a tool call, its result, an answer. */
function conversation(exchanges: number): unknown[] {
  return Array.from({ length: exchanges }, (_, i) => [
    { role: 'user', content: `Question ${i + 1}: what does line ${i + 1} of the invoice say?` },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me read that line.' },
        { type: 'tool-call', toolCallId: `call_${i}`, toolName: 'get_ocr_text', input: { max_chars: 300 } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `call_${i}`,
          toolName: 'get_ocr_text',
          output: { type: 'json', value: { document_id: documentId(1), page_count: 1, text: INVOICE.repeat(3) } },
        },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'text', text: `Line ${i + 1} lists 12 widgets at 50.00 EUR each, 600.00 EUR in all.` }],
    },
  ]).flat();
}

/** Where the seed leaves the id of the prompt whose results are exported. */
interface Seeded {
  promptId: string;
}

const seedInto =
  (seeded: Seeded) =>
  async (database: Database, { orgId, userId }: BenchAccount) => {
    const { db } = database;
    await db.execute(sql`insert into blobs (id, size, sha256) values (${idOf('b0', 1)}, ${INVOICE.length}, 'seeded')`);
    await db.execute(sql`
    insert into tags (id, org_id, name, color)
    select ${idSql('t0', 'i')}, ${orgId}, 'tag ' || i, '#4f46e5' from generate_series(1, ${TAGS}) i`);
    // Newest first is document 1, the one the agent works on.
    await db.execute(sql`
    insert into documents (id, org_id, name, mime_type, kind, state, tag_ids, blob_id, size_bytes, uploaded_by,
      uploaded_at, page_count, text_extracted_at, text_engine)
    select ${idSql('d0', 'i')}, ${orgId}, 'document-' || i || '.pdf', 'application/pdf', 'pdf', 'llm_completed',
      array[${idSql('t0', `i % ${TAGS} + 1`)}], ${idOf('b0', 1)}, ${INVOICE.length}, ${userId},
      now() - make_interval(secs => i), 1, now(), 'pdf_text'
    from generate_series(1, ${DOCUMENTS}) i`);
    await db.execute(sql`
    insert into document_pages (document_id, page, text, width, height, engine, items)
    values (${documentId(1)}, 1, ${INVOICE}, 612, 792, 'pdf_text', '[]'::jsonb)`);
    await db.execute(sql`
    insert into agent_threads (id, org_id, user_id, subject_kind, subject_id, title, messages, working_state, created_at, updated_at)
    select ${idSql('c0', 'i')}, ${orgId}, ${userId}, 'document', ${idSql('d0', `i % 1000 + 1`)}, 'Conversation ' || i,
      jsonb_build_array(
        jsonb_build_object('role', 'user', 'content', 'What is the total of invoice ' || i || '?'),
        jsonb_build_object('role', 'assistant', 'content', 'The total is ' || i * 3 || '.00 EUR.')),
      '{}'::jsonb, now() - make_interval(mins => i), now() - make_interval(mins => i)
    from generate_series(2, ${THREADS}) i`);
    await db.execute(sql`
    insert into agent_threads (id, org_id, user_id, subject_kind, subject_id, title, messages, working_state)
    values (${LONG_THREAD}, ${orgId}, ${userId}, 'document', ${documentId(1)}, 'A long conversation',
      ${JSON.stringify(conversation(LONG_THREAD_EXCHANGES))}::jsonb, '{}'::jsonb)`);
    const prompt = await createPrompt(db, { orgId, role: 'admin', userId }, { name: 'Invoice totals', content: 'The totals.' });
    seeded.promptId = prompt.promptId;
    await db.execute(sql`
    insert into extraction_results (id, org_id, document_id, prompt_id, prompt_revid, prompt_version, model, llm_result, updated_llm_result)
    select ${idSql('r0', 'i')}, ${orgId}, ${idSql('d0', 'i')}, ${prompt.promptId}, ${prompt.promptRevid}, 1, ${MODEL}, r, r
    from generate_series(1, ${EXPORTED}) i,
      json_build_object('invoice_number', 'INV-' || i, 'total', i * 1.25,
        'party', json_build_object('name', 'Customer ' || i, 'city', 'Berlin'),
        'items', json_build_array(json_build_object('sku', 'W-' || i, 'quantity', i % 12 + 1))) r`);
    // As a server that has run a while would have them: the planner's statistics.
    await db.execute(sql`analyze`);
  };

interface ExportMeasure {
  format: string;
  median_ms: number;
  p95_ms: number;
  mb: number;
  rss_before_mb: number;
  peak_rss_mb: number;
}

/**
 * Each format's export of the 50,000 results, read whole by the client: the time of each run, the
 * body's size, and the server's peak resident memory over the runs against its memory before.
 */
async function measureExports(client: ApiClient, servers: BenchServer[], promptId: string): Promise<ExportMeasure[]> {
  const measured: ExportMeasure[] = [];
  for (const format of ['csv', 'json', 'xlsx']) {
    const url = orgPath(client, `/prompts/${promptId}/results/export?format=${format}`);
    let bytes = 0;
    const rssBefore = servers[0]!.rssMb();
    const memory = watchPeakRss(servers);
    const times: number[] = [];
    let peaks: number[];
    try {
      for (let i = 0; i < 1 + EXPORT_RUNS; i++) {
        const started = nowMs();
        const response = await fetch(url, { headers: { authorization: `Bearer ${client.account.token}` } });
        if (!response.ok) throw new Error(`export ${format}: ${response.status} ${(await response.text()).slice(0, 300)}`);
        bytes = (await response.arrayBuffer()).byteLength;
        if (i > 0) times.push(nowMs() - started);
      }
    } finally {
      peaks = memory.stop();
    }
    measured.push({
      format,
      median_ms: median(times),
      p95_ms: percentile(times, 95),
      mb: bytes / 1e6,
      rss_before_mb: rssBefore,
      peak_rss_mb: peaks[0] ?? rssBefore,
    });
  }
  return measured;
}

/** A write the person must approve, then an answer. */
function pausingModel() {
  let tags = 0;
  return (request: RecordedRequest): FakeReply =>
    stepOf(request) === 0
      ? { toolCalls: [{ name: 'create_tag', arguments: { name: `approved tag ${tags++}` } }] }
      : { text: 'The tag is created.' };
}

/** Milliseconds of `run`, one at a time; `prepare` (untimed) runs before each. */
async function timeRuns<T>(run: (prepared: T) => Promise<unknown>, prepare: () => Promise<T>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const prepared = await prepare();
    const started = nowMs();
    await run(prepared);
    if (i >= WARM_UP) times.push(nowMs() - started);
  }
  return times;
}

const timeGets = (client: ApiClient, path: string) =>
  timeRuns(
    () => call(client, 'GET', path),
    async () => undefined,
  );

/** A turn paused on its write call, in a thread or not; `continue` approves it. */
async function pausedTurn(client: ApiClient, threadId?: string) {
  const path = `/documents/${documentId(1)}/chat`;
  const turn = await call<{ turn_id?: string; tool_calls?: Array<{ id: string }> }>(client, 'POST', path, {
    messages: [{ role: 'user', content: 'Create a tag.' }],
    model: MODEL,
    ...(threadId ? { thread_id: threadId } : {}),
  });
  if (!turn.turn_id || !turn.tool_calls) throw new Error('the turn did not pause');
  return {
    path: `${path}/approve`,
    body: { turn_id: turn.turn_id, approvals: [{ call_id: turn.tool_calls[0]!.id, approved: true }] },
  };
}

async function approve(client: ApiClient, paused: Awaited<ReturnType<typeof pausedTurn>>): Promise<void> {
  const done = await call<{ turn_id?: string; text: string }>(client, 'POST', paused.path, paused.body);
  if (done.turn_id || done.text !== 'The tag is created.')
    throw new Error(`the continued turn did not finish: ${JSON.stringify(done)}`);
}

export async function runApiBenchmark(options: BenchOptions): Promise<{ table: string; results: unknown }> {
  const seedStarted = nowMs();
  const seeded: Seeded = { promptId: '' };
  const stack = await startAgentStack({ ...options, agent: pausingModel(), seed: seedInto(seeded) });
  const seedS = (nowMs() - seedStarted) / 1000;
  try {
    const { client } = stack;
    const thread = await call<{ messages: unknown[] }>(client, 'GET', `/documents/${documentId(1)}/chat/threads/${LONG_THREAD}`);
    if (thread.messages.length !== LONG_THREAD_EXCHANGES * 4) throw new Error('the long thread was not seeded');
    const tagged = tagId(7);
    const cases: Array<[string, () => Promise<number[]>]> = [
      [
        `list documents, first page (50 of ${DOCUMENTS.toLocaleString('en')})`,
        () => timeGets(client, '/documents?skip=0&limit=50'),
      ],
      [
        `list documents, a middle page of a tag (skip 2,500 of ${(DOCUMENTS / TAGS).toLocaleString('en')})`,
        () => timeGets(client, `/documents?skip=2500&limit=50&tag_ids=${tagged}`),
      ],
      ['list documents, name search ("4242")', () => timeGets(client, '/documents?skip=0&limit=50&name_search=4242')],
      [
        `load a thread of ${LONG_THREAD_MESSAGES} messages`,
        () => timeGets(client, `/documents/${documentId(1)}/chat/threads/${LONG_THREAD}`),
      ],
      [
        'continue a paused turn (approve: the call runs, then one more model step)',
        () =>
          timeRuns(
            (paused) => approve(client, paused),
            () => pausedTurn(client),
          ),
      ],
      [
        `continue a paused turn in the ${LONG_THREAD_MESSAGES}-message thread`,
        () =>
          timeRuns(
            (paused) => approve(client, paused),
            () => pausedTurn(client, LONG_THREAD),
          ),
      ],
    ];
    const measured: Array<{ request: string; median_ms: number; p95_ms: number }> = [];
    for (const [request, measure] of cases) {
      const times = await measure();
      measured.push({ request, median_ms: median(times), p95_ms: percentile(times, 95) });
    }
    const exports = await measureExports(client, stack.servers, seeded.promptId);
    const rows = [
      ...measured.map((m) => [m.request, `${m.median_ms.toFixed(1)} ms`, `${m.p95_ms.toFixed(1)} ms`]),
      ...exports.map((e) => [
        `export ${EXPORTED.toLocaleString('en')} results as ${e.format.toUpperCase()} (${e.mb.toFixed(1)} MB; server memory ${e.rss_before_mb.toFixed(0)} MB, at most ${e.peak_rss_mb.toFixed(0)} MB while exporting; ${EXPORT_RUNS} runs)`,
        `${e.median_ms.toFixed(0)} ms`,
        `${e.p95_ms.toFixed(0)} ms`,
      ]),
    ];
    return {
      table: table([`request (${options.db}, ${RUNS} runs each)`, 'median', 'p95'], rows),
      results: {
        db: options.db,
        documents: DOCUMENTS,
        threads: THREADS,
        runs: RUNS,
        seed_and_start_s: seedS,
        requests: measured,
        exports: { results: EXPORTED, runs: EXPORT_RUNS, formats: exports },
      },
    };
  } finally {
    await stack.close();
  }
}
