import { DomainError } from '@docagent/core';
import { z } from 'zod';
import type { NoteServices, ToolContext, ToolServices } from '../../tools/tool.ts';

/** Helpers shared by the tools of the notes pack. */

export function noteServicesOf(services: ToolServices): NoteServices {
  if (!services.notes) {
    throw new DomainError(
      'unavailable',
      'Projects and notes are not served by this process (a worker); ask in a chat on the project, where the server answers.',
    );
  }
  return services.notes;
}

/** The project a tool works on: the conversation's. */
export function projectIdOf(context: Pick<ToolContext, 'subject'>): string {
  if (context.subject.kind !== 'project') {
    throw new DomainError(
      'invalid_input',
      'Notes belong to projects: give project_id, or ask in a conversation about a project.',
    );
  }
  return context.subject.id;
}

export const noteIdField = z.string().trim().min(1).max(64).describe('The note_id, as list_notes gives it');

/** The notes pack's slice of the working state: what the agent last wrote or searched. */
export const NOTES_STATE_KEYS = ['note_id', 'web_search_performed'] as const;

export interface NotesWorkingState {
  note_id?: string;
  web_search_performed?: boolean;
}
