import { actOnProject } from '@docagent/agent';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { agentErrors as errors, id } from './agent-bodies.ts';
import { NoteSchema, toNote } from './note-shapes.ts';
import { OrgParamsSchema } from './schemas.ts';

const ActBody = z.strictObject({
  message: z.string().trim().min(1).max(20_000),
  project_id: id,
  document_id: id.nullish().describe('The note the message is about'),
  chat_id: id.nullish().describe('The conversation to continue (a thread id); absent: a new one'),
  model: z.string().max(200).nullish(),
});

const ToolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.unknown(), proposal: z.unknown().optional() });

const DecisionSchema = z.object({
  should_edit: z.boolean(),
  should_create: z.boolean(),
  document_id: z.string().nullable(),
  document_name: z.string().nullable(),
  document_content: z.string().nullable(),
  standing_instruction: z.string().nullable(),
  needs_clarification: z.boolean(),
  pending_confirmation: z.boolean(),
  needs_web_search: z.boolean(),
  search_query: z.string().nullable(),
  intent_statement: z.string().nullable(),
  reasoning: z.string().nullable(),
  conversational_response: z.string().nullable(),
  change_summary: z.string().nullable(),
  content_summary: z.string().nullable(),
  turn_id: z.string().nullable().describe('Continue a pending write with POST .../agent/chat/approve and this turn id'),
  pending_tool_calls: z.array(ToolCallSchema),
});

const ActResponse = z.object({
  document: NoteSchema.nullable().describe('The note the answer is about, as it is now (a proposed write is not applied yet)'),
  chat_message: z.object({
    id: z.string(),
    chat_id: z.string(),
    role: z.literal('assistant'),
    content: z.string(),
    created_at: z.string(),
  }),
  agent_decision: DecisionSchema,
  web_search_performed: z.boolean(),
});

/** Seed 001's one-shot endpoint on the notes agent: writes come back pending, never applied. */
export function agentActRoutes(app: ZodApp, { agent }: RouteDeps): void {
  app.post(
    '/v0/orgs/:organization_id/agent/act',
    {
      schema: {
        summary: "Seed 001's agent action on a project: answer, or propose a note to create or rewrite (non-streaming)",
        description:
          'Runs one agent turn on the project. Writes the agent proposes are not applied: they come back in agent_decision.pending_tool_calls (a rewrite with its proposed text and diff) and wait for POST .../agent/chat/approve with agent_decision.turn_id.',
        tags: ['agent'],
        params: OrgParamsSchema,
        body: ActBody,
        response: { 200: ActResponse, ...errors },
      },
    },
    async (request) => {
      const { message, project_id, document_id, chat_id, model } = request.body;
      const outcome = await actOnProject(agent, orgOf(request), {
        message,
        projectId: project_id,
        noteId: document_id ?? undefined,
        chatId: chat_id ?? undefined,
        model,
      });
      return {
        document: outcome.note ? toNote(outcome.note) : null,
        chat_message: {
          id: outcome.turnId ?? outcome.chatId,
          chat_id: outcome.chatId,
          role: 'assistant' as const,
          content: outcome.reply,
          created_at: new Date().toISOString(),
        },
        agent_decision: outcome.decision,
        web_search_performed: outcome.webSearchPerformed,
      };
    },
  );
}
