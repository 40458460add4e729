/**
 * @docagent/fake-llm — a local HTTP server speaking the OpenAI Responses, OpenAI Chat Completions and Anthropic Messages
 * wire protocols from scripted replies, for pointing the real AI SDK provider clients at it (baseURL = `server.baseUrl`).
 *
 *   const server = await startFakeLlm();
 *   server.enqueue({ text: 'Hi!' }, { toolCalls: [{ name: 'search', arguments: { q: 'x' } }] });
 *   createOpenAI({ baseURL: server.baseUrl, apiKey: 'test' })('gpt-5-mini');
 */
export { DEMO_TEXT, demoHandler } from './demo-handler.ts';
export { exampleForSchema } from './example-for-schema.ts';
export * from './fake-search.ts';
export { type HeldReply, heldReply } from './held-reply.ts';
export type {
  ContentKind,
  FakePace,
  FakeProtocol,
  FakeReply,
  FakeToolCall,
  FakeUsage,
  RecordedRequest,
  SentChunk,
} from './script.ts';
export { type FakeLlmServer, startFakeLlm } from './server.ts';
