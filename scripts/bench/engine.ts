import type { FakeToolCall } from '@docagent/fake-llm';
import { type BenchOptions, startAgentStack } from './agent-stack.ts';
import { type ApiClient, streamTurn, uploadReady } from './client.ts';
import { median, nowMs, percentile, table } from './measure.ts';
import { isAgentRequest, stepOf } from './scripted-agent.ts';
import { sdkFloor } from './sdk-floor.ts';
import type { BenchServer } from './server.ts';

/**
 * The engine's own cost: a 10-step turn (9 cheap tool calls, auto-approved, then an answer)
 * against a provider that answers at once, through `POST .../chat` with SSE; next to it, in
 * the same run, the floor: the same 10 provider requests sent straight to the fake provider, and
 * the same requests sent through the AI SDK's provider (sdk-floor.ts), which tells the library's
 * part of a step from the engine's.
 */

const TURNS = 30;
/**
 * Turns before the measured ones: the first also give the floor its requests. A server that has
 * run only these is still warming up: its JIT takes some 200 turns (2,000 steps) to reach the
 * overhead a long-running server has (BENCHMARKS.md, "Fifteenth session"); `--warm-up N` measures
 * after N instead.
 */
const DEFAULT_WARM_UP_TURNS = 2;
const STEPS = 10;
const MODEL = 'openai:gpt-4.1-mini';
const INVOICE = [
  'INVOICE 2024-117',
  'Bill to: Acme GmbH, Hauptstrasse 1, 10115 Berlin',
  ...Array.from(
    { length: 12 },
    (_, i) => `${i + 1}. Widget type ${i + 1}   ${i + 2} x 12.50 EUR   ${((i + 2) * 12.5).toFixed(2)} EUR`,
  ),
  'Total due: 1,250.00 EUR',
].join('\n');

/** Nine cheap calls: reads of each kind, and one write that the turn's auto-approve lets through. */
const CALLS: FakeToolCall[] = [
  { name: 'list_tags', arguments: {} },
  { name: 'list_schemas', arguments: {} },
  { name: 'list_prompts', arguments: {} },
  { name: 'get_ocr_text', arguments: { max_chars: 500 } },
  { name: 'list_documents', arguments: { limit: 5 } },
  { name: 'update_document', arguments: { metadata: { checked: 'yes' } } },
  { name: 'list_llm_models', arguments: {} },
  { name: 'get_ocr_text', arguments: { start_char: 200, max_chars: 200 } },
  { name: 'list_tags', arguments: { name_search: 'invoice' } },
];

/** A server measured: this checkout's, or a baseline's beside it. */
interface Side {
  name: string;
  client: ApiClient;
  server: BenchServer;
  documentId: string;
  turnMs: number[];
  floorMs: number[];
  sdkFloorMs: number[];
  cpuSeconds: number;
}

async function readySide(client: ApiClient) {
  const documentId = await uploadReady(client, 'invoice.txt', INVOICE);
  return { documentId, turnMs: [], floorMs: [], sdkFloorMs: [], cpuSeconds: 0 };
}

async function turnOf(side: Side): Promise<number> {
  const started = nowMs();
  const { status, frames } = await streamTurn(side.client, `/documents/${side.documentId}/chat`, {
    messages: [{ role: 'user', content: 'Check this document.' }],
    model: MODEL,
    auto_approve: true,
    max_steps: STEPS,
  });
  const elapsed = nowMs() - started;
  const results = frames.filter((f) => f.data.type === 'tool_result' && f.data.success === true).length;
  if (status !== 200 || results !== CALLS.length || frames.at(-1)?.data.type !== 'done') {
    throw new Error(`a turn (${side.name}) did not run its ${STEPS} steps: ${status}, ${JSON.stringify(frames.at(-1)?.data)}`);
  }
  return elapsed;
}

const spread = (values: number[]) => ({ median: median(values), p95: percentile(values, 95) });

function summaryOf(side: Side) {
  // Overhead per step is (turn - its floor) / steps: each turn against the floor measured right after it.
  const perStep = side.turnMs.map((t, i) => (t - side.floorMs[i]!) / STEPS);
  return {
    turn: spread(side.turnMs),
    floor: spread(side.floorMs),
    sdkFloor: spread(side.sdkFloorMs),
    overhead: spread(perStep),
    // The same split against the floor through the AI SDK, measured right after the plain one.
    library: spread(side.sdkFloorMs.map((t, i) => (t - side.floorMs[i]!) / STEPS)),
    beyondLibrary: spread(side.turnMs.map((t, i) => (t - side.sdkFloorMs[i]!) / STEPS)),
    ratio: spread(side.turnMs.map((t, i) => t / side.floorMs[i]!)),
    cpuPerTurnMs: (side.cpuSeconds / side.turnMs.length) * 1000,
    perStep,
    turnMs: side.turnMs,
    floorMs: side.floorMs,
  };
}

const resultsOf = (m: ReturnType<typeof summaryOf>) => ({
  turn_ms: { ...m.turn, all: m.turnMs },
  floor_ms: { ...m.floor, all: m.floorMs },
  sdk_floor_ms: m.sdkFloor,
  overhead_per_step_ms: m.overhead,
  library_per_step_ms: m.library,
  engine_beyond_library_per_step_ms: m.beyondLibrary,
  ratio: m.ratio,
  server_cpu_per_turn_ms: m.cpuPerTurnMs,
});

/**
 * The overhead per step of this checkout minus the baseline's, round by round: the two turns of a
 * round ran seconds apart, so a machine whose speed drifts over minutes moves both alike.
 */
function pairedDifference(mine: number[], theirs: number[]) {
  const differences = mine.map((v, i) => v - theirs[i]!);
  return { median: median(differences), p25: percentile(differences, 25), p75: percentile(differences, 75), all: differences };
}

export async function runEngineBenchmark(options: BenchOptions): Promise<{ table: string; results: unknown }> {
  const stack = await startAgentStack({
    ...options,
    agent: (request) => {
      const call = CALLS[stepOf(request)];
      return call ? { toolCalls: [call] } : { text: 'The document is checked: nothing is missing.' };
    },
  });
  try {
    const { fake } = stack;
    const sides: Side[] = [
      { name: 'this checkout', client: stack.client, server: stack.servers[0]!, ...(await readySide(stack.client)) },
    ];
    if (stack.baseline) sides.push({ name: 'baseline', ...stack.baseline, ...(await readySide(stack.baseline.client)) });

    // The sides warm up turn for turn: a server left idle while the other warmed up was slower
    // afterwards, about 1 ms a step whichever went first (V8's memory reducer, BENCHMARKS.md).
    const warmUpTurns = options.warmUpTurns ?? DEFAULT_WARM_UP_TURNS;
    for (let i = 1; i < warmUpTurns; i++) for (const side of sides) await turnOf(side);
    const first = fake.requests.length;
    await turnOf(sides[0]!);
    // The floor replays this checkout's requests: both sides are measured against the same one.
    const bodies = fake.requests
      .slice(first)
      .filter(isAgentRequest)
      .slice(-STEPS)
      .map((r) => JSON.stringify(r.body));
    for (const side of sides.slice(1)) await turnOf(side);
    const floor = async () => {
      const started = nowMs();
      for (const body of bodies) {
        const response = await fetch(`${fake.baseUrl}/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
          body,
        });
        await response.text();
      }
      return nowMs() - started;
    };
    await floor();
    const floorThroughSdk = sdkFloor(fake, bodies);
    // As many times as the server's warm-up turns, so that the library has warmed up as much in
    // this process as in the server when the split is measured.
    for (let i = 0; i < warmUpTurns; i++) await floorThroughSdk();

    // Turn and floor alternate, so that both see the same noise of a shared machine; with a
    // baseline, the two sides take turns going first, so that each pair shares it too.
    for (let i = 0; i < TURNS; i++) {
      for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
        const cpu = side.server.cpuSeconds();
        side.turnMs.push(await turnOf(side));
        side.cpuSeconds += side.server.cpuSeconds() - cpu;
        side.floorMs.push(await floor());
        side.sdkFloorMs.push(await floorThroughSdk());
      }
    }
    const measured = sides.map(summaryOf);
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const rows = measured.flatMap((m, i) => {
      const of = sides.length > 1 ? ` (${sides[i]!.name})` : '';
      return [
        [`turn through docagent (${STEPS} steps, SSE)${of}`, ms(m.turn.median), ms(m.turn.p95)],
        [`floor: the ${STEPS} provider responses fetched directly${of}`, ms(m.floor.median), ms(m.floor.p95)],
        [`floor through the AI SDK's OpenAI provider: the same requests${of}`, ms(m.sdkFloor.median), ms(m.sdkFloor.p95)],
        [`docagent overhead per step${of}`, ms(m.overhead.median), ms(m.overhead.p95)],
        [`  of it, the AI SDK's provider: (SDK floor - floor) / ${STEPS}${of}`, ms(m.library.median), ms(m.library.p95)],
        [`  of it, the rest: (turn - SDK floor) / ${STEPS}${of}`, ms(m.beyondLibrary.median), ms(m.beyondLibrary.p95)],
        [`turn / floor (each turn against its own floor)${of}`, m.ratio.median.toFixed(1), m.ratio.p95.toFixed(1)],
        [`server CPU per turn${of}`, ms(m.cpuPerTurnMs), ''],
      ];
    });
    const paired = sides.length > 1 ? pairedDifference(measured[0]!.perStep, measured[1]!.perStep) : undefined;
    if (paired) {
      rows.push([
        'overhead per step, this checkout minus the baseline, in the same round: median (p25 to p75)',
        `${paired.median.toFixed(2)} ms (${paired.p25.toFixed(2)} to ${paired.p75.toFixed(2)})`,
        '',
      ]);
    }
    return {
      table: table([`${TURNS} turns after ${warmUpTurns} to warm up, ${options.db}`, 'median', 'p95'], rows),
      results: {
        db: options.db,
        model: MODEL,
        turns: TURNS,
        warm_up_turns: warmUpTurns,
        steps_per_turn: STEPS,
        ...resultsOf(measured[0]!),
        ...(paired ? { baseline: { checkout: options.baseline, ...resultsOf(measured[1]!) }, paired_difference_ms: paired } : {}),
      },
    };
  } finally {
    await stack.close();
  }
}
