import { getNote, getProjectRecord } from '@docagent/core';
import type { Pack } from '../../engine/pack.ts';
import type { ToolDefinition } from '../../tools/tool.ts';
import { notesSection } from './context-section.ts';
import { createNoteTool, deleteNoteTool, listNotesTool, readNoteTool, renameNoteTool } from './note-tools.ts';
import { rewriteNoteTool } from './rewrite-tool.ts';
import { NOTES_STATE_KEYS } from './shared.ts';
import { webSearchTool } from './web-search-tool.ts';

/** The notes agent's tools (seed 001): reads and web search run at once, every write is approved. */
export const notesTools: ToolDefinition[] = [
  listNotesTool,
  readNoteTool,
  createNoteTool,
  rewriteNoteTool,
  renameNoteTool,
  deleteNoteTool,
  webSearchTool,
];

/** The project subject: conversations that keep a project's Markdown notes. */
export const notesPack: Pack = {
  name: 'notes',
  serves: ['project'],
  tools: notesTools,
  async findSubject(services, access, subject) {
    const project = await getProjectRecord(services.db, access.orgId, subject.id);
    return { title: project.name };
  },
  section: notesSection,
  mentions: {
    kinds: ['note'],
    async resolve(services, orgId, mention, subject) {
      const note = await getNote(services.db, orgId, subject.id, mention.id);
      // The name is the person's text: quoted, never read as an instruction.
      return `the note ${JSON.stringify(note.name)} (note_id ${note.id}, version ${note.version}, ${note.content.length} characters)`;
    },
  },
  workingStateKeys: NOTES_STATE_KEYS,
  subjectArgument: { name: 'project_id', description: 'The project whose notes the call is about' },
};

export { type ActDecision, type ActOutcome, type ActRequest, actOnProject } from './project-act.ts';
export { rewritePrompt } from './rewrite-call.ts';
export { MAX_REWRITE_CHARS, type RewriteProposal } from './rewrite-tool.ts';
export type { NotesWorkingState } from './shared.ts';
