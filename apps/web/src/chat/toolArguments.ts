import { parseJson } from '../lib/parseJson';

export const formatArguments = (value: unknown) => JSON.stringify(value ?? {}, null, 2);

const SUMMARY_LENGTH = 90;

function short(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 30 ? `${value.slice(0, 29)}…` : value);
  if (Array.isArray(value)) return `[${value.length}]`;
  if (typeof value === 'object' && value !== null) return '{…}';
  return String(value);
}

/** One line about a call's arguments: `name: "urgent", color: "#f00"`. */
export function summarizeArguments(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return short(value);
  const line = Object.entries(value)
    .map(([key, entry]) => `${key}: ${short(entry)}`)
    .join(', ');
  return line.length > SUMMARY_LENGTH ? `${line.slice(0, SUMMARY_LENGTH - 1)}…` : line;
}

export type ArgumentsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Edited arguments must be JSON and an object, as every tool's input is. */
export function checkArguments(text: string): ArgumentsCheck {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const where = parsed.error.line === undefined ? '' : ` (line ${parsed.error.line}, column ${parsed.error.column})`;
    return { ok: false, error: `${parsed.error.message}${where}` };
  }
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    return { ok: false, error: 'The arguments must be a JSON object ({ … }).' };
  }
  return { ok: true, value: parsed.value as Record<string, unknown> };
}
