import { DATA_QUERY_MODES, DATA_RUN_STATUSES } from '@docagent/core';
import { z } from 'zod';
import { id, StrategySchema, ToolsResponse } from './agent-bodies.ts';

/** Chat on a dataset (seed 004's bodies). */

export const DatasetChatRequestSchema = z.strictObject({
  message: z
    .string()
    .max(100_000)
    .refine((m) => m.trim() !== '', 'must not be empty')
    .describe('A question for the agent, or "SQL: <query>" / "PYTHON: <code>" to run it directly, with no model call'),
  thread_id: id.optional().describe('Go on with this conversation; without it a new thread is made (its id comes back)'),
  strategy: StrategySchema.optional(),
  model: z.string().max(200).nullable().optional().describe('provider:model; default: the organization default'),
});

export const DatasetChatResponseSchema = z.object({
  assistant_message: z.string(),
  run_id: z.string().nullable().describe("The turn's last execution (GET .../runs/{run_id}); null when it ran none"),
  thread_id: z.string(),
  turn_id: z.string().nullable().describe("The agent's turn; null on the SQL:/PYTHON: fast path"),
  status: z
    .enum([...DATA_RUN_STATUSES, 'needs_input'])
    .describe("The last execution's status (succeeded when none ran); needs_input: the turn asks a question"),
  result: z
    .object({
      columns: z.array(z.object({ name: z.string(), type: z.string() })),
      rows: z.array(z.array(z.unknown())),
      row_count: z.number(),
      exec_time_ms: z.number().nullable(),
      truncated: z.enum(['rows', 'bytes']).nullable(),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
    })
    .nullable(),
  details: z
    .object({
      dataset_id: z.string(),
      query_mode: z.enum(DATA_QUERY_MODES),
      plan_json: z.record(z.string(), z.unknown()).nullable(),
      compiled_sql: z.string().nullable(),
      python_code: z.string().nullable(),
    })
    .nullable(),
  input_request: z
    .object({ call_id: z.string(), question: z.string() })
    .optional()
    .describe('Answer it with POST .../agent/chat/approve {turn_id, input}'),
  stopped: z.enum(['user', 'max_steps']).optional(),
});

export const DatasetToolsResponse = ToolsResponse.extend({
  unavailable: z.record(z.string(), z.string()).describe('Tools this server cannot run, with why and what to install'),
});

/** The data pack's chat request from a chat body. */
export const datasetChatRequestOf = (b: z.infer<typeof DatasetChatRequestSchema>) => ({
  message: b.message,
  threadId: b.thread_id,
  strategy: b.strategy,
  model: b.model,
});
