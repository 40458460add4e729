/** What a chat request says about a mention (as api/chat's Mention; kept free of imports for the node tests). */
interface Mention {
  type: 'schema' | 'prompt' | 'tag';
  /** schema_revid, prompt_revid or tag id. */
  id: string;
}

/** Something the person can point the agent at with @. */
export interface MentionChoice extends Mention {
  /** What the token shows: the name (and a schema's or prompt's version). */
  label: string;
  detail: string;
}

/** The `@query` being typed at the caret, if any: the @ starts the text or follows a space. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at === -1) return null;
  if (at > 0 && !/\s/.test(before[at - 1] ?? '')) return null;
  const query = before.slice(at + 1);
  if (/[\n@]/.test(query) || query.length > 60) return null;
  return { start: at, query };
}

/**
 * The mention being typed at the caret, as mentionQueryAt, but none once the @ there starts a
 * mention already chosen and the caret is past its token: what follows is the message again.
 */
export function openMentionAt(text: string, caret: number, chosen: MentionChoice[]): { start: number; query: string } | null {
  const query = mentionQueryAt(text, caret);
  if (query === null) return null;
  const done = chosen.some((choice) => {
    const token = tokenOf(choice);
    return text.startsWith(token, query.start) && caret >= query.start + token.length;
  });
  return done ? null : query;
}

export function filterChoices(choices: MentionChoice[], query: string, limit = 12): MentionChoice[] {
  const needle = query.trim().toLowerCase();
  return choices
    .filter((choice) => needle === '' || `${choice.label} ${choice.type}`.toLowerCase().includes(needle))
    .slice(0, limit);
}

/** The token a chosen mention leaves in the message. */
export const tokenOf = (choice: MentionChoice) => `@${choice.label}`;

/** The mentions whose token is still in the text, once each. */
export function mentionsInText(text: string, chosen: MentionChoice[]): Mention[] {
  const seen = new Set<string>();
  const mentions: Mention[] = [];
  for (const choice of chosen) {
    const key = `${choice.type}:${choice.id}`;
    if (seen.has(key) || !text.includes(tokenOf(choice))) continue;
    seen.add(key);
    mentions.push({ type: choice.type, id: choice.id });
  }
  return mentions;
}
