import type { FakeToolCall } from '@docagent/fake-llm';
import { type BenchOptions, startAgentStack } from './agent-stack.ts';
import { streamTurn, uploadReady } from './client.ts';
import { median, nowMs, percentile, table } from './measure.ts';
import { isAgentRequest, stepOf } from './scripted-agent.ts';

/**
 * The engine's own cost: a 10-step turn (9 cheap tool calls, auto-approved, then an answer)
 * against a provider that answers at once, through `POST .../chat` with SSE; next to it, in
 * the same run, the floor: the same 10 provider requests sent straight to the fake provider.
 */

const TURNS = 30;
const WARM_UP_TURNS = 2;
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

export async function runEngineBenchmark(options: BenchOptions): Promise<{ table: string; results: unknown }> {
  const stack = await startAgentStack({
    ...options,
    agent: (request) => {
      const call = CALLS[stepOf(request)];
      return call ? { toolCalls: [call] } : { text: 'The document is checked: nothing is missing.' };
    },
  });
  try {
    const { client, fake, servers } = stack;
    const documentId = await uploadReady(client, 'invoice.txt', INVOICE);
    const turn = async () => {
      const started = nowMs();
      const { status, frames } = await streamTurn(client, `/documents/${documentId}/chat`, {
        messages: [{ role: 'user', content: 'Check this document.' }],
        model: MODEL,
        auto_approve: true,
        max_steps: STEPS,
      });
      const elapsed = nowMs() - started;
      const results = frames.filter((f) => f.data.type === 'tool_result' && f.data.success === true).length;
      if (status !== 200 || results !== CALLS.length || frames.at(-1)?.data.type !== 'done') {
        throw new Error(`a turn did not run its ${STEPS} steps: ${status}, ${JSON.stringify(frames.at(-1)?.data)}`);
      }
      return elapsed;
    };

    const first = fake.requests.length;
    for (let i = 0; i < WARM_UP_TURNS; i++) await turn();
    const bodies = fake.requests
      .slice(first)
      .filter(isAgentRequest)
      .slice(-STEPS)
      .map((r) => JSON.stringify(r.body));
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

    // Turn and floor alternate, so that both see the same noise of a shared machine.
    const turnMs: number[] = [];
    const floorMs: number[] = [];
    let cpuTurns = 0;
    for (let i = 0; i < TURNS; i++) {
      const cpu = servers[0]!.cpuSeconds();
      turnMs.push(await turn());
      cpuTurns += servers[0]!.cpuSeconds() - cpu;
      floorMs.push(await floor());
    }
    const overheadPerStep = turnMs.map((t, i) => (t - floorMs[i]!) / STEPS);
    const ratio = turnMs.map((t, i) => t / floorMs[i]!);
    const cpuPerTurnMs = (cpuTurns / TURNS) * 1000;

    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const rows = [
      [`turn through docagent (${STEPS} steps, SSE)`, ms(median(turnMs)), ms(percentile(turnMs, 95))],
      [`floor: the ${STEPS} provider responses fetched directly`, ms(median(floorMs)), ms(percentile(floorMs, 95))],
      ['docagent overhead per step', ms(median(overheadPerStep)), ms(percentile(overheadPerStep, 95))],
      ['turn / floor (each turn against its own floor)', median(ratio).toFixed(1), percentile(ratio, 95).toFixed(1)],
      ['server CPU per turn', ms(cpuPerTurnMs), ''],
    ];
    return {
      table: table([`${TURNS} turns, ${options.db}`, 'median', 'p95'], rows),
      results: {
        db: options.db,
        model: MODEL,
        turns: TURNS,
        steps_per_turn: STEPS,
        turn_ms: { median: median(turnMs), p95: percentile(turnMs, 95), all: turnMs },
        floor_ms: { median: median(floorMs), p95: percentile(floorMs, 95), all: floorMs },
        overhead_per_step_ms: { median: median(overheadPerStep), p95: percentile(overheadPerStep, 95) },
        ratio: { median: median(ratio), p95: percentile(ratio, 95) },
        server_cpu_per_turn_ms: cpuPerTurnMs,
      },
    };
  } finally {
    await stack.close();
  }
}
