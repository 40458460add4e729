import { setTimeout as sleep } from 'node:timers/promises';
import { type ChatFrame, readChatFrames } from '../../apps/web/src/api/chatStream.ts';
import type { BenchAccount } from './database.ts';
import { nowMs } from './measure.ts';

/** A frame of a docagent SSE response, stamped with its arrival. */
export interface Frame {
  data: ChatFrame;
  /** When the bytes ending this frame arrived (epoch ms, as the fake provider's `sent` stamps). */
  at: number;
}

/** What a benchmark calls docagent's HTTP API with: a base URL and an account's token. */
export interface ApiClient {
  url: string;
  account: BenchAccount;
}

export interface Turn {
  status: number;
  frames: Frame[];
  /** The response's `x-bench-backend` header, set by the benchmark's load balancer. */
  backend: string | null;
  /** The last frame's `done` result, when the turn got that far. */
  result: Record<string, unknown> | undefined;
}

export function orgPath(client: ApiClient, path: string): string {
  return `${client.url}/v0/orgs/${client.account.orgId}${path}`;
}

export async function call<T>(client: ApiClient, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(orgPath(client, path), {
    method,
    headers: {
      authorization: `Bearer ${client.account.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** A chat request with `stream: true`, read to its end; `onFrame` sees each frame as it arrives. */
export async function streamTurn(
  client: ApiClient,
  path: string,
  body: Record<string, unknown>,
  onFrame?: (frame: Frame) => void,
): Promise<Turn> {
  const response = await fetch(orgPath(client, path), {
    method: 'POST',
    headers: { authorization: `Bearer ${client.account.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  const backend = response.headers.get('x-bench-backend');
  if (!response.ok) {
    await response.text();
    return { status: response.status, frames: [], backend, result: undefined };
  }
  const frames: Frame[] = [];
  if (response.body) {
    // The web app's reader: the frames are parsed as the product's own client parses them.
    await readChatFrames(response.body, (data) => {
      const frame = { data, at: nowMs() };
      frames.push(frame);
      onFrame?.(frame);
    });
  }
  const last = frames.at(-1)?.data;
  const result = last?.type === 'done' ? (last.result as unknown as Record<string, unknown>) : undefined;
  return { status: response.status, frames, backend, result };
}

/** Uploads a text document and waits until its text is extracted and its default prompt has run. */
export async function uploadReady(client: ApiClient, name: string, text: string): Promise<string> {
  const uploaded = await call<{ documents: Array<{ document_id: string }> }>(client, 'POST', '/documents', {
    documents: [{ name, content: Buffer.from(text).toString('base64') }],
  });
  const id = uploaded.documents[0]!.document_id;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { state } = await call<{ state: string }>(client, 'GET', `/documents/${id}?include_content=false`);
    if (state === 'llm_completed') return id;
    if (state.endsWith('_failed') || Date.now() > deadline) throw new Error(`document ${name} ended ${state}`);
    await sleep(100);
  }
}
