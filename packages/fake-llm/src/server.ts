import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { anthropicErrorBody, messagesEvents, messagesJson } from './anthropic-messages.ts';
import { listenOn } from './listen.ts';
import { chatEvents, chatJson } from './openai-chat.ts';
import { openAiErrorBody, responsesEvents, responsesJson } from './openai-responses.ts';
import {
  type AnswerReply,
  type FakeProtocol,
  type FakeReply,
  isErrorReply,
  type JsonBody,
  prepareAnswer,
  type RecordedRequest,
  type RenderInput,
  randomId,
  type SentChunk,
  type SseEvent,
} from './script.ts';
import { writeSse } from './sse.ts';

export type FakeLlmHandler = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

export interface FakeLlmServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** `${url}/v1` — works as OPENAI_BASE_URL, ANTHROPIC_BASE_URL and an openai-compatible baseURL */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Every streamed content delta with the time it was sent, in order (see SentChunk). */
  sent: SentChunk[];
  /** FIFO, shared by all protocols */
  enqueue(...replies: FakeReply[]): void;
  /** used when the queue is empty */
  setHandler(handler: FakeLlmHandler | undefined): void;
  /** clears queue, requests, sent, handler */
  reset(): void;
  close(): Promise<void>;
}

export const MAX_BODY_BYTES = 20 * 1024 * 1024;

const routes: Record<string, FakeProtocol> = {
  '/v1/responses': 'openai-responses',
  '/v1/chat/completions': 'openai-chat',
  '/v1/messages': 'anthropic-messages',
};

interface Protocol {
  toolIdPrefix: string;
  json(input: RenderInput, body: unknown): unknown;
  events(input: RenderInput, body: unknown): SseEvent[];
  errorBody(status: number, message: string, requestId: string): unknown;
  requestIdHeader: string;
}

const protocols: Record<FakeProtocol, Protocol> = {
  'openai-responses': {
    toolIdPrefix: 'call_',
    json: responsesJson,
    events: responsesEvents,
    errorBody: openAiErrorBody,
    requestIdHeader: 'x-request-id',
  },
  'openai-chat': {
    toolIdPrefix: 'call_',
    json: chatJson,
    events: chatEvents,
    errorBody: openAiErrorBody,
    requestIdHeader: 'x-request-id',
  },
  'anthropic-messages': {
    toolIdPrefix: 'toolu_',
    json: messagesJson,
    events: messagesEvents,
    errorBody: anthropicErrorBody,
    requestIdHeader: 'request-id',
  },
};

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

type BodyResult = { ok: true; text: string } | { ok: false; tooLarge: true };

function readBody(req: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0; // keep draining, but discard
        return;
      }
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(tooLarge ? { ok: false, tooLarge: true } : { ok: true, text: Buffer.concat(chunks).toString('utf8') }),
    );
    req.on('error', reject);
  });
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function startFakeLlm(options: { port?: number; host?: string } = {}): Promise<FakeLlmServer> {
  const host = options.host ?? '127.0.0.1';
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  const sent: SentChunk[] = [];
  let handler: FakeLlmHandler | undefined;

  async function nextReply(request: RecordedRequest): Promise<FakeReply> {
    const queued = queue.shift();
    if (queued) return queued;
    if (handler) {
      try {
        return await handler(request);
      } catch (error) {
        return {
          kind: 'error',
          status: 500,
          message: `fake-llm: handler threw: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    }
    return { kind: 'error', status: 500, message: `fake-llm: no scripted reply left for ${request.protocol} request` };
  }

  async function answer(protocol: FakeProtocol, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const impl = protocols[protocol];
    const requestId = randomId('req_');
    const idHeader = { [impl.requestIdHeader]: requestId };
    const fail = (status: number, message: string, extra: Record<string, string> = {}) =>
      sendJson(res, status, impl.errorBody(status, message, requestId), { ...idHeader, ...extra });

    const read = await readBody(req);
    if (!read.ok) {
      fail(413, `fake-llm: request body exceeds ${MAX_BODY_BYTES} bytes`, { connection: 'close' });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch (error) {
      fail(400, `fake-llm: malformed JSON in request body: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      fail(400, 'fake-llm: request body must be a JSON object');
      return;
    }
    const fields = body as JsonBody;
    const request: RecordedRequest = { protocol, path, headers: headerRecord(req), body, stream: fields.stream === true };
    const index = requests.push(request) - 1;

    const reply = await nextReply(request);
    if (isErrorReply(reply)) {
      const extra: Record<string, string> =
        reply.retryAfterSeconds !== undefined ? { 'retry-after': String(reply.retryAfterSeconds) } : {};
      fail(reply.status, reply.message ?? `fake-llm: scripted error ${reply.status}`, extra);
      return;
    }
    const input = prepareAnswer(reply as AnswerReply, fields, impl.toolIdPrefix, read.text.length);
    if (request.stream) {
      await writeSse(res, impl.events(input, fields), idHeader, {
        cutAfterEvents: reply.cutAfterEvents,
        pace: reply.pace,
        onContent: (content, at) => sent.push({ request: index, ...content, at }),
      });
    } else {
      sendJson(res, 200, impl.json(input, fields), idHeader);
    }
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const protocol = routes[path];
    const work = async () => {
      if (req.method === 'GET' && path === '/v1/models') {
        req.resume();
        sendJson(res, 200, {
          object: 'list',
          data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake-llm' }],
        });
        return;
      }
      if (protocol && req.method === 'POST') {
        await answer(protocol, req, res, path);
        return;
      }
      req.resume();
      sendJson(res, protocol ? 405 : 404, openAiErrorBody(protocol ? 405 : 404, `fake-llm: no route for ${req.method} ${path}`));
    };
    work().catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, openAiErrorBody(500, `fake-llm: ${error instanceof Error ? error.message : String(error)}`));
      } else {
        res.destroy();
      }
    });
  });

  return listenOn(server, options.port ?? 0, host).then(({ url, close }) => ({
    url,
    baseUrl: `${url}/v1`,
    requests,
    sent,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    setHandler: (next) => {
      handler = next;
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      sent.length = 0;
      handler = undefined;
    },
    close,
  }));
}
