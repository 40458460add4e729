import { exampleForSchema } from './example-for-schema.ts';
import type { FakeReply, RecordedRequest } from './script.ts';

export const DEMO_TEXT = 'This is a reply from fake-llm.';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON schema a request asks the answer to follow, or `null` for plain JSON mode, or `undefined` for free text. */
function requestedJson(request: RecordedRequest): { schema: unknown } | null | undefined {
  const body = request.body;
  if (request.protocol === 'openai-responses') {
    const format = body?.text?.format;
    if (format?.type === 'json_schema') return { schema: format.schema };
    if (format?.type === 'json_object') return null;
  } else if (request.protocol === 'openai-chat') {
    const format = body?.response_format;
    if (format?.type === 'json_schema') return { schema: format.json_schema?.schema };
    if (format?.type === 'json_object') return null;
  } else {
    const format = body?.output_config?.format;
    if (format?.type === 'json_schema') return { schema: format.schema };
  }
  return undefined;
}

/** An Anthropic JSON-output tool: the AI SDK's `json` tool (structuredOutputMode 'jsonTool'), or a forced tool named like json. */
function anthropicJsonTool(request: RecordedRequest): { name: string; schema: unknown } | undefined {
  if (request.protocol !== 'anthropic-messages' || !Array.isArray(request.body?.tools)) return undefined;
  const tools = (request.body.tools as unknown[]).filter(isRecord);
  const forced =
    isRecord(request.body.tool_choice) && request.body.tool_choice.type === 'tool' ? request.body.tool_choice.name : undefined;
  const tool = tools.find(
    (candidate) =>
      typeof candidate.name === 'string' &&
      (candidate.name === forced || candidate.name === 'json') &&
      /json/i.test(candidate.name),
  );
  return tool ? { name: tool.name as string, schema: tool.input_schema } : undefined;
}

/**
 * The CLI's handler: a short fixed text, or — when the request asks for structured output — a minimal JSON value
 * satisfying the requested schema (as text, or as the Anthropic JSON tool's input).
 */
export function demoHandler(request: RecordedRequest): FakeReply {
  const jsonTool = anthropicJsonTool(request);
  if (jsonTool) return { toolCalls: [{ name: jsonTool.name, arguments: exampleForSchema(jsonTool.schema) }] };
  const json = requestedJson(request);
  if (json === null) return { text: '{}' };
  if (json !== undefined) return { text: JSON.stringify(exampleForSchema(json.schema)) };
  return { text: DEMO_TEXT };
}
