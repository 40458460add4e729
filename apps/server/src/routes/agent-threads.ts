import type { Thread, ThreadSummary } from '@docagent/agent';
import type { z } from 'zod';
import type { ThreadBodySchema, ThreadSummarySchema } from './agent-bodies.ts';
import { iso } from './schemas.ts';

export const threadSummaryBody = (t: ThreadSummary): z.infer<typeof ThreadSummarySchema> => ({
  id: t.id,
  title: t.title,
  created_at: iso(t.createdAt),
  updated_at: iso(t.updatedAt),
});

export const threadBody = (t: Thread): z.infer<typeof ThreadBodySchema> => ({
  ...threadSummaryBody(t),
  messages: t.messages,
  working_state: t.workingState,
  extraction: t.workingState,
  strategy: t.strategy,
});
