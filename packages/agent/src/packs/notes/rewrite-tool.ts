import {
  DomainError,
  getNote,
  getNoteVersion,
  isDomainError,
  NOTE_LIMITS,
  type NoteRecord,
  StaleNoteVersion,
  unifiedDiff,
  updateNote,
} from '@docagent/core';
import { z } from 'zod';
import { defineTool, type ToolContext, type UndoContext, type UndoneWrite } from '../../tools/tool.ts';
import { changedSince, recordedOutput } from '../../tools/undo-output.ts';
import { findSection, headingList } from './note-sections.ts';
import { rewriteText } from './rewrite-call.ts';
import { type NotesWorkingState, noteIdField, noteServicesOf, projectIdOf } from './shared.ts';

/**
 * The most a rewrite sends to the model at once (about 10k tokens, which the model must also write
 * back): a longer note is rewritten a section at a time.
 */
export const MAX_REWRITE_CHARS = 40_000;

/** What the person approves: the new text, and the diff from the version it was made from. */
export interface RewriteProposal {
  note_id: string;
  note_name: string;
  base_version: number;
  section: string | null;
  content: string;
  diff: string;
  additions: number;
  deletions: number;
}

const input = z.strictObject({
  note_id: noteIdField,
  request: z
    .string()
    .trim()
    .min(1)
    .max(8000)
    .describe("What to change, in the person's words and with every detail they gave (the tool keeps the rest)"),
  section: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .optional()
    .describe(`The heading of the one section to rewrite; needed for notes over ${MAX_REWRITE_CHARS} characters`),
  sources: z
    .array(z.strictObject({ title: z.string().max(300), url: z.url().max(2000), snippet: z.string().max(1000).optional() }))
    .max(10)
    .optional()
    .describe('web_search results the new text should use and cite'),
});

const labelsOf = (note: NoteRecord) => ({ before: `${note.name} (version ${note.version})`, after: `${note.name} (proposed)` });

export const rewriteNoteTool = defineTool({
  name: 'rewrite_note',
  description: `Change an existing note: a model rewrites it honouring its standing instruction and your request, and the person sees the diff and approves it before it is saved. Pass the request in words, not the new text. For a note over ${MAX_REWRITE_CHARS} characters name the section (a heading) to rewrite. Example: {"note_id": "…", "request": "Remove the budget section"}`,
  input,
  access: 'read_write',
  writeEffect: 'adds',
  async target(context, args) {
    const note = await getNote(context.services.db, context.access.orgId, projectIdOf(context), args.note_id);
    return { subject: true, creator: note.createdBy };
  },
  async propose(context, args): Promise<RewriteProposal> {
    const note = await getNote(context.services.db, context.access.orgId, projectIdOf(context), args.note_id);
    const part = partToRewrite(note, args.section);
    if (!context.llm) throw new DomainError('unavailable', 'rewrite_note needs a model, and this run has none.');
    const answer = await rewriteText(context.llm, {
      orgId: context.access.orgId,
      model: context.modelId,
      projectId: note.projectId,
      noteName: note.name,
      standingInstruction: note.standingInstruction,
      request: args.request,
      text: note.content.slice(part.start, part.end),
      section: part.heading,
      sources: args.sources ?? [],
      signal: context.abortSignal,
    });
    context.addUsage(answer.usage, answer.costUsd);
    const original = note.content.slice(part.start, part.end);
    // The blank lines that ended the part end the new text too, so the next section keeps its place.
    const trailing = /\s*$/.exec(original)?.[0] ?? '';
    const content = note.content.slice(0, part.start) + answer.text.trimEnd() + trailing + note.content.slice(part.end);
    if (content.length > NOTE_LIMITS.contentChars) {
      throw new DomainError(
        'too_large',
        `The rewritten note would have ${content.length} characters, over the limit of ${NOTE_LIMITS.contentChars}.`,
      );
    }
    if (content === note.content) {
      throw new DomainError('invalid_input', 'The rewrite changed nothing: say more precisely what should change.');
    }
    return {
      note_id: note.id,
      note_name: note.name,
      base_version: note.version,
      section: part.heading,
      content,
      ...unifiedDiff(note.content, content, labelsOf(note)),
    };
  },
  async run(context, args) {
    const proposal = context.proposal as RewriteProposal | undefined;
    if (!proposal || proposal.note_id !== args.note_id) {
      throw new DomainError('invalid_input', 'This rewrite has no proposal to apply; call rewrite_note again.');
    }
    return applyProposal(context, proposal);
  },
  undo: (context, _args, output) => undoRewrite(context, output),
});

/** What undoing rewrite_note reads of its output: the note and the version the rewrite saved. */
const savedNoteVersion = z.object({ note_id: z.string(), version: z.number().int().min(2) });

/** The text before the rewrite becomes current again as a new version, unless the note changed since. */
async function undoRewrite(context: UndoContext, output: unknown): Promise<UndoneWrite> {
  const applied = recordedOutput('rewrite_note', savedNoteVersion, output);
  const projectId = projectIdOf(context);
  const { db } = context.services;
  const note = await getNote(db, context.access.orgId, projectId, applied.note_id);
  if (note.version !== applied.version) throw changedSince(`The note "${note.name}"`, applied.version, note.version);
  const previous = await getNoteVersion(db, context.access.orgId, projectId, note.id, applied.version - 1);
  // base_version: a change saved meanwhile is refused (StaleNoteVersion), never overwritten.
  const restored = await updateNote(noteServicesOf(context.services).projects, context.access, projectId, note.id, {
    content: previous.content,
    baseVersion: applied.version,
    // The person asked for it: the version is theirs, as an edit by hand would be.
    source: 'person',
    summary: `Undid the agent's rewrite: version ${previous.version}'s text again`,
  });
  return {
    artifact: 'note',
    ids: { note_id: restored.id, project_id: projectId },
    version: restored.version,
    restored_version: previous.version,
    message: `The note "${restored.name}" has version ${previous.version}'s text again, saved as version ${restored.version}.`,
  };
}

/** Saves exactly the approved text, if the note is still the version it was made from. */
async function applyProposal(context: ToolContext, proposal: RewriteProposal) {
  const projectId = projectIdOf(context);
  const { db } = context.services;
  try {
    const note = await updateNote(noteServicesOf(context.services).projects, context.access, projectId, proposal.note_id, {
      content: proposal.content,
      baseVersion: proposal.base_version,
      source: 'agent',
      summary: proposal.section ? `Rewrote the section "${proposal.section}"` : 'Rewritten by the agent',
    });
    (context.workingState as NotesWorkingState).note_id = note.id;
    return {
      note_id: note.id,
      name: note.name,
      version: note.version,
      additions: proposal.additions,
      deletions: proposal.deletions,
    };
  } catch (error) {
    if (error instanceof StaleNoteVersion) {
      const fresh = unifiedDiff(error.current.content, proposal.content, {
        before: `${error.current.name} (version ${error.current.version}, now)`,
        after: `${error.current.name} (the approved rewrite)`,
      });
      return {
        error: `The note "${error.current.name}" changed since this rewrite was proposed (it was version ${proposal.base_version}, it is version ${error.current.version} now); nothing was written, so no change is lost. Applying the rewrite now would make this change (a fresh diff); call rewrite_note again to rewrite the current version:\n${fresh.diff}`,
      };
    }
    if (isDomainError(error) && error.kind === 'not_found') {
      const still = await getNote(db, context.access.orgId, projectId, proposal.note_id).catch(() => null);
      if (!still)
        return { error: `The note "${proposal.note_name}" was deleted after this rewrite was proposed; nothing was written.` };
    }
    throw error;
  }
}

/** The whole note, or the named section; a note too long for one call needs a section. */
function partToRewrite(note: NoteRecord, section: string | undefined): { start: number; end: number; heading: string | null } {
  if (section !== undefined) {
    const found = findSection(note.content, section);
    if (!found) {
      throw new DomainError(
        'invalid_input',
        `The note "${note.name}" has no section "${section}". Its headings: ${headingList(note.content)}.`,
      );
    }
    if (found.end - found.start > MAX_REWRITE_CHARS) {
      throw new DomainError(
        'too_large',
        `The section "${found.heading}" has ${found.end - found.start} characters, more than one rewrite takes (${MAX_REWRITE_CHARS}); name one of its subsections. Headings: ${headingList(note.content)}.`,
      );
    }
    return { start: found.start, end: found.end, heading: found.heading };
  }
  if (note.content.length > MAX_REWRITE_CHARS) {
    throw new DomainError(
      'too_large',
      `The note "${note.name}" has ${note.content.length} characters, more than one rewrite takes (${MAX_REWRITE_CHARS}): call rewrite_note again with section, the heading of the part to change. Headings: ${headingList(note.content)}.`,
    );
  }
  return { start: 0, end: note.content.length, heading: null };
}
