import type { FakeReply, RecordedRequest } from '@docagent/fake-llm';
import type { ModelMessage } from 'ai';
import { type BenchOptions, startAgentStack } from './agent-stack.ts';
import { type ApiClient, call, uploadReady } from './client.ts';
import { table } from './measure.ts';
import { isAgentRequest, lastUserText, stepOf, toolOutputsOf } from './scripted-agent.ts';
import { cacheReads, countSegments, messageText, segmentsOf, tokens } from './tokens.ts';

/**
 * What the model is sent over a scripted 6-turn conversation about a long document (a thread,
 * tools auto-approved), counted with a tokenizer, next to a naive agent computed from the same
 * run: the full document text, all tool definitions and the full history on every call.
 */

const MODELS = [
  { id: 'openai:gpt-4.1-mini', label: 'openai' },
  { id: 'anthropic:claude-sonnet-4-5', label: 'anthropic' },
];

const TURNS = [
  'What is this document about?',
  'Read the whole agreement and tell me the payment terms.',
  'Propose a schema for the invoice lines and create it.',
  'Create a prompt with that schema and run the extraction on this document.',
  'Set the total to 1250 and tag the document as an invoice.',
  'Summarise what we did.',
];

const RESPONSE_FORMAT = {
  type: 'json_schema',
  json_schema: {
    name: 'invoice_lines',
    strict: true,
    schema: {
      type: 'object',
      properties: {
        total: { type: 'number' },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } },
            required: ['description', 'quantity', 'amount'],
            additionalProperties: false,
          },
        },
      },
      required: ['total', 'lines'],
      additionalProperties: false,
    },
  },
};

/** About 60,000 characters (some 15 pages): clauses of a supply agreement, then the invoice it governs. */
function agreement(): string {
  const subjects = ['delivery', 'payment', 'warranty', 'liability', 'confidentiality', 'termination', 'force majeure', 'audit'];
  const clauses = Array.from({ length: 110 }, (_, i) => {
    const subject = subjects[i % subjects.length]!;
    return (
      `${i + 1}. ${subject.toUpperCase()}. The Supplier and the Buyer agree that all matters of ${subject} under order ${4100 + i} ` +
      `are governed by this clause. Notices about ${subject} are given in writing within ${5 + (i % 25)} business days, ` +
      `and any amount due under it is paid within ${30 + (i % 3) * 15} days of the invoice date to account DE89 3704 0044 0532 ${String(13_000 + i * 7).padStart(6, '0')}. ` +
      `Where this clause conflicts with clause ${((i + 7) % 110) + 1}, the stricter obligation applies, unless both parties sign a written waiver.`
    );
  });
  const lines = Array.from(
    { length: 40 },
    (_, i) =>
      `${i + 1} | Steel bracket type ${String.fromCharCode(65 + (i % 26))}${i} | ${i + 3} pcs | ${((i + 3) * 17.5).toFixed(2)} EUR`,
  );
  return [
    'SUPPLY AGREEMENT between Nordwerk Metall GmbH (the Supplier) and Acme Fabrication Ltd (the Buyer)',
    ...clauses,
    'INVOICE 2024-117 under this agreement',
    ...lines,
    'Total due: 1,250.00 EUR',
  ].join('\n');
}

const words = (n: number, topic: string) =>
  Array.from({ length: n }, (_, i) =>
    i % 9 === 0 ? topic : ['the', 'agreement', 'sets', 'clear', 'terms', 'for', 'each', 'party'][i % 8],
  )
    .join(' ')
    .concat('.');

/** The latest output of an earlier call that has `field`. */
function latestWith(request: RecordedRequest, field: string): Record<string, unknown> {
  const output = toolOutputsOf(request).findLast((o) => typeof o === 'object' && o !== null && field in o);
  if (!output) throw new Error(`no earlier tool output has ${field}`);
  return output as Record<string, unknown>;
}

/** The model's side of the conversation: which call or answer each turn's steps make. */
function scriptedModel(request: RecordedRequest): FakeReply {
  const turn = TURNS.indexOf(lastUserText(request));
  const step = stepOf(request);
  const label = request.protocol === 'anthropic-messages' ? 'anthropic' : 'openai';
  const steps: Array<() => FakeReply> = (() => {
    switch (turn) {
      case 0:
        return [
          () => ({
            text: `A supply agreement between Nordwerk Metall and Acme Fabrication, with an invoice. ${words(60, 'supply')}`,
          }),
        ];
      case 1:
        return [
          () => ({ text: 'Reading it whole.', toolCalls: [{ name: 'get_ocr_text', arguments: { max_chars: 50_000 } }] }),
          () => ({ text: `Payment is due within 30 to 60 days of the invoice date. ${words(80, 'payment')}` }),
        ];
      case 2:
        return [
          () => ({
            toolCalls: [
              { name: 'create_schema', arguments: { name: `Invoice lines ${label}`, response_format: RESPONSE_FORMAT } },
            ],
          }),
          () => ({ text: `I created the schema with the total and one entry per line. ${words(40, 'schema')}` }),
        ];
      case 3:
        return [
          () => ({
            toolCalls: [
              {
                name: 'create_prompt',
                arguments: {
                  name: `Invoice lines ${label}`,
                  content: 'Extract every invoice line with its quantity and amount, and the total due.',
                  schema_id: String(latestWith(request, 'schema_id').schema_id),
                },
              },
            ],
          }),
          () => ({ toolCalls: [{ name: 'run_extraction', arguments: {} }] }),
          () => ({ text: `The extraction ran; the lines are listed. ${words(50, 'extraction')}` }),
        ];
      case 4:
        return [
          () => ({ toolCalls: [{ name: 'update_extraction_field', arguments: { path: 'total', value: 1250 } }] }),
          () => ({ toolCalls: [{ name: 'create_tag', arguments: { name: `invoice ${label}` } }] }),
          // The tag just created: tags are the outputs with a color.
          () => ({ toolCalls: [{ name: 'update_document', arguments: { tag_ids: [String(latestWith(request, 'color').id)] } }] }),
          () => ({ text: `The total is 1250 and the document is tagged. ${words(30, 'tag')}` }),
        ];
      default:
        return [
          () => ({
            text: `We read the agreement, made a schema and a prompt, extracted and fixed the total. ${words(70, 'summary')}`,
          }),
        ];
    }
  })();
  const reply = steps[step];
  if (!reply) throw new Error(`turn ${turn} has no step ${step}`);
  return reply();
}

interface CallCount {
  turn: number;
  docagent: number;
  naive: number;
  cacheable: number;
  /** What Anthropic's prompt cache could serve: a prefix an earlier call of the conversation wrote. */
  cacheRead: number;
}

/**
 * Each agent call's tokens as sent, and as the naive agent would send them: the same tools,
 * the system message with the whole text for the excerpt, and the whole thread so far.
 */
function countCalls(requests: RecordedRequest[], thread: ModelMessage[], fullText: string): CallCount[] {
  const userAt = thread.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  const reads = cacheReads(requests.map(segmentsOf));
  return requests.map((request, index) => {
    const turn = TURNS.indexOf(lastUserText(request));
    const step = stepOf(request);
    const segments = segmentsOf(request);
    const sent = countSegments(segments);
    const history = thread.slice(0, userAt[turn]! + 1 + 2 * step);
    if (step > 0 && history.at(-1)?.role !== 'tool') throw new Error(`turn ${turn} step ${step}: the thread is not as expected`);
    const naiveSystem = segments
      .filter((s) => s.section === 'system')
      .map((s) =>
        s.text.replace(/<document_text>\n[\s\S]*\n<\/document_text>/, `<document_text>\n${fullText}\n</document_text>`),
      );
    const naive =
      segments.filter((s) => s.section === 'tools').reduce((sum, s) => sum + tokens(s.text), 0) +
      naiveSystem.reduce((sum, text) => sum + tokens(text), 0) +
      history.reduce((sum, m) => sum + tokens(messageText(m)), 0);
    return { turn, docagent: sent.total, naive, cacheable: sent.cacheable, cacheRead: reads[index]! };
  });
}

async function converse(client: ApiClient, model: string, text: string): Promise<{ documentId: string; thread: ModelMessage[] }> {
  const documentId = await uploadReady(client, `agreement-${model.replace(/\W/g, '-')}.txt`, text);
  const { thread_id } = await call<{ thread_id: string }>(client, 'POST', `/documents/${documentId}/chat/threads`, {});
  for (const content of TURNS) {
    const result = await call<{ turn_id?: string; text: string }>(client, 'POST', `/documents/${documentId}/chat`, {
      messages: [{ role: 'user', content }],
      thread_id,
      model,
      auto_approve: true,
    });
    if (result.turn_id) throw new Error(`turn "${content}" paused`);
  }
  const thread = await call<{ messages: ModelMessage[] }>(client, 'GET', `/documents/${documentId}/chat/threads/${thread_id}`);
  return { documentId, thread: thread.messages };
}

export async function runContextBenchmark(options: BenchOptions): Promise<{ table: string; results: unknown }> {
  const stack = await startAgentStack({ ...options, agent: scriptedModel });
  try {
    const perModel: Array<{ model: string; calls: CallCount[]; toolTokens: number }> = [];
    for (const model of MODELS) {
      const first = stack.fake.requests.length;
      const { documentId, thread } = await converse(stack.client, model.id, agreement());
      const stored = await fetch(`${stack.client.url}/v0/orgs/${stack.client.account.orgId}/ocr/download/text/${documentId}`, {
        headers: { authorization: `Bearer ${stack.client.account.token}` },
      }).then((r) => r.text());
      const requests = stack.fake.requests.slice(first).filter(isAgentRequest);
      const toolTokens = segmentsOf(requests[0]!)
        .filter((segment) => segment.section === 'tools')
        .reduce((sum, segment) => sum + tokens(segment.text), 0);
      perModel.push({ model: model.id, calls: countCalls(requests, thread, stored), toolTokens });
    }
    const sum = (calls: CallCount[], key: 'docagent' | 'naive' | 'cacheable' | 'cacheRead') =>
      calls.reduce((s, c) => s + c[key], 0);
    const ofTurn = (calls: CallCount[], turn: number) => calls.filter((c) => c.turn === turn);
    const cells = (calls: CallCount[]) => {
      const docagent = sum(calls, 'docagent');
      const naive = sum(calls, 'naive');
      return [calls.length, docagent, naive, `${(100 * (1 - docagent / naive)).toFixed(0)} %`];
    };
    const rows = [
      ...TURNS.map((_, turn) => [`${turn + 1}. ${TURNS[turn]}`, ...perModel.flatMap((m) => cells(ofTurn(m.calls, turn)))]),
      ['total', ...perModel.flatMap((m) => cells(m.calls))],
    ];
    const anthropic = perModel.find((m) => m.model.startsWith('anthropic:'))!;
    const cacheableShare = sum(anthropic.calls, 'cacheable') / sum(anthropic.calls, 'docagent');
    // The first call of a conversation has nothing in the cache; the share is of the calls after it.
    const later = anthropic.calls.slice(1);
    const cacheReadShare = sum(later, 'cacheRead') / sum(later, 'docagent');
    const header = ['turn', ...perModel.flatMap((m) => [`${m.model} calls`, 'docagent tokens', 'naive tokens', 'saved'])];
    return {
      table: [
        table(header, rows),
        '',
        `Tool definitions in every call: ${perModel.map((m) => `${m.toolTokens} tokens (${m.model})`).join(', ')}.`,
        `Share of ${anthropic.model}'s input marked cacheable (cache_control): ${(100 * cacheableShare).toFixed(0)} %.`,
        `Share of ${anthropic.model}'s input after its first call that repeats a prefix an earlier call wrote (what the cache serves): ${(100 * cacheReadShare).toFixed(0)} %.`,
      ].join('\n'),
      results: {
        tokenizer: 'gpt-tokenizer o200k_base',
        models: perModel.map((m) => ({
          model: m.model,
          calls: m.calls,
          docagent_tokens: sum(m.calls, 'docagent'),
          naive_tokens: sum(m.calls, 'naive'),
          tool_definition_tokens_per_call: m.toolTokens,
        })),
        anthropic_cacheable_share: cacheableShare,
        anthropic_cache_read_share: cacheReadShare,
      },
    };
  } finally {
    await stack.close();
  }
}
