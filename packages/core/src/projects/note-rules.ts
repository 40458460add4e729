import { invalidInput, tooLarge } from '../errors.ts';

/** What a note may hold, checked in one place for the HTTP routes and the agent's tools alike. */

/** Who wrote a version: a person (the UI, the API) or the agent. */
export type NoteSource = 'person' | 'agent';

export const NOTE_LIMITS = { nameChars: 200, instructionChars: 4000, contentChars: 2_000_000 };

/** Versions are PostgreSQL integers. */
const MAX_VERSION = 2_147_483_647;

/** A version's summary is a line; longer ones are cut. */
const SUMMARY_CHARS = 500;

function checkText(what: string, value: string): void {
  if (value.includes('\u0000')) throw invalidInput(`${what} contains a NUL character (U+0000); remove it.`);
}

export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > NOTE_LIMITS.nameChars) {
    throw invalidInput(
      `A note name has 1 to ${NOTE_LIMITS.nameChars} characters; "${trimmed.slice(0, 40)}" has ${trimmed.length}. Give it a shorter name.`,
    );
  }
  checkText('The note name', trimmed);
  return trimmed;
}

export function checkInstruction(instruction: string): string {
  if (instruction.length > NOTE_LIMITS.instructionChars) {
    throw invalidInput(
      `A note's standing instruction has at most ${NOTE_LIMITS.instructionChars} characters; this one has ${instruction.length}. Shorten it.`,
    );
  }
  checkText("The note's standing instruction", instruction);
  return instruction;
}

export function checkContent(content: string): string {
  if (content.length > NOTE_LIMITS.contentChars) {
    throw tooLarge(
      `A note holds at most ${NOTE_LIMITS.contentChars} characters; this content has ${content.length}. Split it into several notes.`,
    );
  }
  checkText("The note's content", content);
  return content;
}

export function checkSource(source: NoteSource): NoteSource {
  if (source !== 'person' && source !== 'agent')
    throw invalidInput(`A note version's source is "person" or "agent", not "${source}".`);
  return source;
}

export const summaryOf = (summary: string | undefined): string => (summary ?? '').trim().slice(0, SUMMARY_CHARS);

export function checkVersion(what: string, version: number): number {
  if (!Number.isSafeInteger(version) || version < 1 || version > MAX_VERSION) {
    throw invalidInput(`${what} is a version number (1, 2, ...), not ${version}.`);
  }
  return version;
}
