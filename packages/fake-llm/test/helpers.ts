import { after, before, beforeEach } from 'node:test';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel, TextStreamPart, ToolSet } from 'ai';
import { type FakeLlmServer, type FakeProtocol, startFakeLlm } from '../src/index.ts';

/** One fake server for the whole test file, handed to `use` once started and cleared before each test. */
export function fakeServerPerFile(use: (server: FakeLlmServer) => void): void {
  let server: FakeLlmServer | undefined;
  before(async () => {
    server = await startFakeLlm();
    use(server);
  });
  after(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server?.reset();
  });
}

export interface ProtocolCase {
  protocol: FakeProtocol;
  path: string;
  modelId: string;
  model(server: FakeLlmServer): LanguageModel;
}

export const protocolCases: ProtocolCase[] = [
  {
    protocol: 'openai-responses',
    path: '/v1/responses',
    modelId: 'gpt-5-mini',
    model: (server) => createOpenAI({ baseURL: server.baseUrl, apiKey: 'test' })('gpt-5-mini'),
  },
  {
    protocol: 'openai-chat',
    path: '/v1/chat/completions',
    modelId: 'local-model',
    model: (server) =>
      createOpenAICompatible({
        name: 'local',
        baseURL: server.baseUrl,
        apiKey: 'test',
        // without these, the client asks for no usage in streams and sends `json_object` instead of a schema
        includeUsage: true,
        supportsStructuredOutputs: true,
      })('local-model'),
  },
  {
    protocol: 'anthropic-messages',
    path: '/v1/messages',
    modelId: 'claude-sonnet-4-5',
    model: (server) => createAnthropic({ baseURL: server.baseUrl, apiKey: 'test' })('claude-sonnet-4-5'),
  },
];

/** Drains a streamText full stream, returning its parts. */
export async function collect<TOOLS extends ToolSet>(
  stream: AsyncIterable<TextStreamPart<TOOLS>>,
): Promise<TextStreamPart<TOOLS>[]> {
  const parts: TextStreamPart<TOOLS>[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}
