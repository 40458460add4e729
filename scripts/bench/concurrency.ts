import type { FakeLlmServer, FakePace, FakeReply, FakeToolCall, RecordedRequest } from '@docagent/fake-llm';
import { type AgentStack, type BenchOptions, startAgentStack } from './agent-stack.ts';
import { type ApiClient, type Frame, streamTurn, type Turn, uploadReady } from './client.ts';
import { median, nowMs, percentile, table } from './measure.ts';
import { stepOf } from './scripted-agent.ts';
import { watchPeakRss } from './server.ts';

/**
 * Many conversations at once against a provider at a model's pace (first token after 300 ms,
 * then 60 tokens a second; two tool rounds per turn). For each text frame the client receives,
 * the latency docagent added: its arrival minus the moment its chunk left the fake provider.
 * A second run puts two server processes on one PostgreSQL database behind a round-robin
 * load balancer, with a first tool call that waits for approval: about half the approvals
 * land on the process that did not start the turn.
 */

const LEVELS = [50, 100, 200];
const TWO_PROCESS_LEVEL = 100;
const WARM_UP_TURNS = 5;
const PACE: FakePace = { firstTokenMs: 300, tokensPerSecond: 60 };
const MODEL = 'openai:gpt-4.1-mini';
const DOCUMENT = `DELIVERY NOTE 88-2041\nShip to: Beta Logistics, Dock 4\n${Array.from(
  { length: 40 },
  (_, i) => `Line ${i + 1}: pallet ${1000 + i}, 12 cartons, 240 kg`,
).join('\n')}`;

/** Words no other chunk of the run has, so that each text frame finds the chunk it came from. */
function wordsFrom(counter: { next: number }, count: number): string {
  return Array.from({ length: count }, () => `w${(counter.next++).toString(36)}`).join(' ');
}

/** The model's side of a turn: some text with each of two tool calls, then an answer. */
function pacedAgent(firstCall: (n: number) => FakeToolCall) {
  const counter = { next: 0 };
  return (request: RecordedRequest): FakeReply => {
    const step = stepOf(request);
    if (step === 0) return { text: wordsFrom(counter, 20), toolCalls: [firstCall(counter.next)], pace: PACE };
    if (step === 1) return { text: wordsFrom(counter, 20), toolCalls: [{ name: 'list_tags', arguments: {} }], pace: PACE };
    return { text: wordsFrom(counter, 40), pace: PACE };
  };
}

/** When each text chunk left the fake provider, looked up by its (unique) text. */
function sentTimes(fake: FakeLlmServer) {
  const byText = new Map<string, number>();
  let indexed = 0;
  return (chunk: string): number | undefined => {
    for (; indexed < fake.sent.length; indexed++) {
      const sent = fake.sent[indexed]!;
      if (sent.kind === 'text') byText.set(sent.text, sent.at);
    }
    return byText.get(chunk);
  };
}

interface LevelOutcome {
  latencies: number[];
  turnMs: number[];
  errors: string[];
  approvals: { total: number; onOtherProcess: number; failed: number };
}

function failureOf(turn: Turn): string | undefined {
  if (turn.status !== 200) return `HTTP ${turn.status}`;
  for (const { data } of turn.frames) if (data.type === 'error') return `error frame: ${data.error}`;
  if (!turn.result) return 'the stream ended without a done frame';
  return undefined;
}

/** Turns that paused for approval are approved at once, through the same balancer. */
async function runTurns(stack: AgentStack, documentId: string, turns: number, approve: boolean): Promise<LevelOutcome> {
  const sentAt = sentTimes(stack.fake);
  const outcome: LevelOutcome = { latencies: [], turnMs: [], errors: [], approvals: { total: 0, onOtherProcess: 0, failed: 0 } };
  const onFrame = (frame: Frame) => {
    if (frame.data.type !== 'assistant_text_chunk') return;
    const at = sentAt(frame.data.chunk);
    if (at === undefined) outcome.errors.push(`a text frame matches no chunk the provider sent: ${frame.data.chunk}`);
    else outcome.latencies.push(frame.at - at);
  };
  const client: ApiClient = stack.client;
  const path = `/documents/${documentId}/chat`;
  const one = async () => {
    const started = nowMs();
    let turn = await streamTurn(client, path, { messages: [{ role: 'user', content: 'Go.' }], model: MODEL }, onFrame);
    let problem = failureOf(turn);
    const pending = turn.result?.tool_calls as Array<{ id: string }> | undefined;
    if (!problem && approve && turn.result?.turn_id && pending) {
      const startedOn = turn.backend;
      turn = await streamTurn(
        client,
        `${path}/approve`,
        { turn_id: turn.result.turn_id, approvals: pending.map((c) => ({ call_id: c.id, approved: true })) },
        onFrame,
      );
      problem = failureOf(turn);
      outcome.approvals.total++;
      if (turn.backend !== startedOn) outcome.approvals.onOtherProcess++;
      if (problem) outcome.approvals.failed++;
    }
    if (!problem && turn.result?.turn_id) problem = 'the turn is still paused';
    if (!problem && (turn.result?.executed_rounds as unknown[] | undefined)?.length !== 2) problem = 'not two tool rounds';
    if (problem) outcome.errors.push(problem);
    else outcome.turnMs.push(nowMs() - started);
  };
  await Promise.all(
    Array.from({ length: turns }, () => one().catch((error: Error) => outcome.errors.push(`request failed: ${error.message}`))),
  );
  return outcome;
}

async function measureLevel(stack: AgentStack, documentId: string, turns: number, approve: boolean) {
  const cpuBefore = stack.servers.map((s) => s.cpuSeconds());
  for (const server of stack.servers) server.resetLoopDelay();
  const started = nowMs();
  const memory = watchPeakRss(stack.servers);
  let outcome: LevelOutcome;
  let peakRssMb: number[];
  try {
    outcome = await runTurns(stack, documentId, turns, approve);
  } finally {
    peakRssMb = memory.stop();
  }
  const wallS = (nowMs() - started) / 1000;
  const cpuS = stack.servers.reduce((sum, s, i) => sum + s.cpuSeconds() - cpuBefore[i]!, 0);
  const loop = await Promise.all(stack.servers.map((s) => s.loopDelay()));
  return { turns, outcome, wallS, cpuS, peakRssMb, loopStallMs: Math.max(...loop.map((l) => l.maxMs)) };
}

async function withStack<T>(
  options: BenchOptions & { servers?: number },
  firstCall: (n: number) => FakeToolCall,
  fn: (stack: AgentStack, documentId: string) => Promise<T>,
): Promise<T> {
  const stack = await startAgentStack({ ...options, agent: pacedAgent(firstCall) });
  try {
    const documentId = await uploadReady(stack.client, 'delivery-note.txt', DOCUMENT);
    return await fn(stack, documentId);
  } finally {
    await stack.close();
  }
}

type Measured = Awaited<ReturnType<typeof measureLevel>>;

function row(label: string, m: Measured): Array<string | number> {
  const { latencies, errors, turnMs, approvals } = m.outcome;
  return [
    label,
    m.turns,
    `${median(latencies).toFixed(1)} ms`,
    `${percentile(latencies, 99).toFixed(1)} ms`,
    errors.length,
    `${m.loopStallMs.toFixed(0)} ms`,
    `${(median(turnMs) / 1000).toFixed(2)} s`,
    `${m.cpuS.toFixed(1)} s (${((m.cpuS / m.wallS) * 100).toFixed(0)} % of a core)`,
    m.peakRssMb.map((mb) => `${mb.toFixed(0)} MB`).join(' + '),
    approvals.total === 0 ? '' : `${approvals.onOtherProcess} of ${approvals.total}, ${approvals.failed} failed`,
  ];
}

const summary = (m: Measured) => ({
  turns: m.turns,
  frame_latency_ms: {
    p50: median(m.outcome.latencies),
    p99: percentile(m.outcome.latencies, 99),
    frames: m.outcome.latencies.length,
  },
  errors: m.outcome.errors.length,
  longest_event_loop_stall_ms: m.loopStallMs,
  first_errors: m.outcome.errors.slice(0, 5),
  turn_s_median: median(m.outcome.turnMs) / 1000,
  wall_s: m.wallS,
  server_cpu_s: m.cpuS,
  peak_rss_mb: m.peakRssMb,
  approvals: m.outcome.approvals,
});

type Summary = ReturnType<typeof summary>;

/** A level's figure over several runs: the median, and the lowest and highest. */
const spreadMs = (values: number[]) =>
  `${median(values).toFixed(1)} ms (${Math.min(...values).toFixed(1)} to ${Math.max(...values).toFixed(1)})`;

/** Each level over the runs' summaries: what a change must move by to be more than one run's noise. */
function levelsOverRuns(runs: Summary[][]): { table: string; results: unknown[] } {
  const levels = LEVELS.map((turns, i) => {
    const level = runs.map((levels) => levels[i]!);
    return {
      turns,
      p50_ms: level.map((s) => s.frame_latency_ms.p50),
      p99_ms: level.map((s) => s.frame_latency_ms.p99),
      longest_stall_ms: level.map((s) => s.longest_event_loop_stall_ms),
      errors: level.reduce((sum, s) => sum + s.errors, 0),
    };
  });
  return {
    table: table(
      ['turns at once', 'runs', 'added latency per frame p50', 'p99', 'longest event-loop stall', 'errors'],
      levels.map((l) => [l.turns, runs.length, spreadMs(l.p50_ms), spreadMs(l.p99_ms), spreadMs(l.longest_stall_ms), l.errors]),
    ),
    results: levels,
  };
}

export async function runConcurrencyBenchmark(options: BenchOptions): Promise<{ table: string; results: unknown }> {
  const readOnly = () => ({ name: 'get_ocr_text', arguments: { max_chars: 300 } });
  const runs: Measured[][] = [];
  for (let run = 0; run < (options.runs ?? 1); run++) {
    runs.push(
      await withStack(options, readOnly, async (stack, documentId) => {
        await runTurns(stack, documentId, WARM_UP_TURNS, false);
        const measured: Measured[] = [];
        for (const turns of LEVELS) measured.push(await measureLevel(stack, documentId, turns, false));
        return measured;
      }),
    );
  }
  // A write the person approves: the approval goes through the balancer like any request.
  const createTag = (n: number) => ({ name: 'create_tag', arguments: { name: `bench tag ${n}` } });
  const two = await withStack({ ...options, db: 'postgres', servers: 2 }, createTag, async (stack, documentId) => {
    await runTurns(stack, documentId, WARM_UP_TURNS, true);
    return measureLevel(stack, documentId, TWO_PROCESS_LEVEL, true);
  });

  const header = [
    'run',
    'turns at once',
    'added latency per frame p50',
    'p99',
    'errors',
    'longest event-loop stall',
    'turn time p50',
    'server CPU',
    'peak RSS',
    'approvals on the other process',
  ];
  const rows = [
    ...runs.flatMap((levels, run) =>
      levels.map((m) => row(`1 process, ${options.db}${runs.length > 1 ? `, run ${run + 1}` : ''}`, m)),
    ),
    row('2 processes + balancer, postgres, approve each turn', two),
  ];
  const summaries = runs.map((levels) => levels.map(summary));
  const overRuns = runs.length > 1 ? levelsOverRuns(summaries) : undefined;
  return {
    table: overRuns ? `${table(header, rows)}\n\n${overRuns.table}` : table(header, rows),
    results: {
      pace: PACE,
      model: MODEL,
      single_process: {
        db: options.db,
        runs: summaries,
        ...(overRuns ? { levels_over_runs: overRuns.results } : {}),
      },
      two_processes: { db: 'postgres', ...summary(two) },
    },
  };
}
