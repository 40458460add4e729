import { sql } from 'drizzle-orm';
import { promptRevisions } from '../db/schema.ts';

/** True for a prompt's current revision; older ones are history and hold nothing in use. */
export const isLatestPromptRevision = sql`${promptRevisions.version} = (select max(r.version) from prompt_revisions r where r.prompt_id = ${promptRevisions.promptId})`;
