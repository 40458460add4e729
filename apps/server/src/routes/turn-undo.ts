import { undoLastWrite } from '@docagent/agent';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { agentErrors as errors, id } from './agent-bodies.ts';
import { OrgParamsSchema } from './schemas.ts';

/** Undo of a turn's last applied write (DESIGN "MCP, permission rules, webhooks, telemetry"). */

const UndoResponse = z.object({
  turn_id: z.string(),
  call_id: z.string().describe('The call undone'),
  tool: z.string().describe('Its tool, e.g. update_schema'),
  artifact: z.enum(['schema', 'prompt', 'note', 'extraction_result']),
  ids: z
    .record(z.string(), z.string())
    .describe('What names it: schema_id and schema_revid, prompt_id and prompt_revid, note_id, or document_id and prompt_revid'),
  version: z
    .number()
    .int()
    .nullable()
    .describe('The version now current: a new one holding the earlier content; null for an extraction result'),
  restored_version: z
    .number()
    .int()
    .nullable()
    .describe('The version whose content is current again; null for an extraction result'),
  message: z.string(),
});

export function turnUndoRoutes(app: ZodApp, { agent }: RouteDeps): void {
  app.post(
    '/v0/orgs/:organization_id/agent/turns/:turn_id/undo',
    {
      schema: {
        summary:
          "Undo the last write a turn applied, where what it changed is versioned (a schema, a prompt, a note's text, an extraction field)",
        description:
          'The version before the write becomes current again as a new version, so history is kept. Refused (409) when the turn applied no write, its last write cannot be undone (a create or a delete), it was undone already, the turn has not ended, or what it changed has changed since. Only the turn’s own user or an admin may undo it.',
        tags: ['agent'],
        params: OrgParamsSchema.extend({ turn_id: id }),
        response: { 200: UndoResponse, ...errors },
      },
    },
    async (request) => undoLastWrite(agent, orgOf(request), request.params.turn_id),
  );
}
