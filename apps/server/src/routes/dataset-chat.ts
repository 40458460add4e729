import { chatOnDataset, datasetChatTools } from '@docagent/agent';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import { lazySse } from '../http/sse.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { agentErrors as errors } from './agent-bodies.ts';
import {
  DatasetChatRequestSchema,
  DatasetChatResponseSchema,
  DatasetToolsResponse,
  datasetChatRequestOf,
} from './dataset-chat-bodies.ts';
import { OrgParamsSchema } from './schemas.ts';

/**
 * Chat on a dataset with seed 004's bodies: the engine's turn with the data pack, on a thread of
 * the dataset. The generic agent routes serve the same conversations with the engine's frames.
 */

const DatasetParams = OrgParamsSchema.extend({ dataset_id: z.string().min(1).max(64) });
const tags = ['datasets'];

export function datasetChatRoutes(app: ZodApp, { agent }: RouteDeps): void {
  const base = '/v0/orgs/:organization_id/datasets/:dataset_id/chat';

  app.post(
    base,
    {
      schema: {
        summary: 'Ask the data analyst about a dataset; SQL: or PYTHON: runs the code directly',
        description:
          "The answer carries the turn's last execution (run_id, result, details), or nulls when it ran none. A message starting with SQL: or PYTHON: runs as written, with no model call.",
        tags,
        params: DatasetParams,
        body: DatasetChatRequestSchema,
        response: { 200: DatasetChatResponseSchema, ...errors },
      },
    },
    async (request) => chatOnDataset(agent, orgOf(request), request.params.dataset_id, datasetChatRequestOf(request.body)),
  );

  app.post(
    `${base}/stream`,
    {
      schema: {
        summary: 'The same, as Server-Sent Events: token, tool_call, tool_result, result, done (or error)',
        description:
          'Each frame has an event: line naming it and JSON data: token {text}; tool_call {call_id, name, input}; tool_result {call_id, name, success, output | error}; result (the body of POST .../chat); done {run_id, thread_id, turn_id}; error {message}. The fast path sends no token. A client that goes away stops the frames, not the turn.',
        tags,
        params: DatasetParams,
        body: DatasetChatRequestSchema,
        response: { ...errors },
      },
    },
    async (request, reply) => {
      const sse = lazySse(reply);
      let seq = 0;
      try {
        await chatOnDataset(agent, orgOf(request), request.params.dataset_id, datasetChatRequestOf(request.body), (e) => {
          seq += 1;
          sse.send(seq, e.data, e.event);
        });
      } catch (error) {
        // After the first frame the error already went out as an `error` event.
        if (!sse.opened) throw error;
        request.log.warn({ err: error }, 'dataset chat failed');
      } finally {
        sse.end();
      }
    },
  );

  app.get(
    `${base}/tools`,
    {
      schema: {
        summary: "The data analyst's tools by access, and those this server cannot run (execute_python without bwrap or pandas)",
        tags,
        params: DatasetParams,
        response: { 200: DatasetToolsResponse, ...errors },
      },
    },
    async (request) => datasetChatTools(agent, orgOf(request), request.params.dataset_id),
  );
}
