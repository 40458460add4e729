import picomatch from 'picomatch';
import { invalidInput } from '../errors.ts';

/**
 * Which calls of a tool a rule covers: argument path → glob, every entry matching. A path is
 * dotted with [i] for array items ("document_id", "fields[0].name"); a glob is matched against
 * the argument as text (numbers and booleans as written in JSON), `*` across any characters
 * ("invoice*" matches "invoice/2024" too), `?` one, `[abc]` one of, `{a,b}` either. An empty
 * pattern covers every call.
 */
export type RulePattern = Readonly<Record<string, string>>;

export const PATTERN_LIMITS = { entries: 20, pathChars: 200, globChars: 500 } as const;

const PATH = /^[A-Za-z_$][\w$-]*(?:\[\d+\]|\.[A-Za-z_$][\w$-]*)*$/;
const GLOB_OPTIONS = { bash: true, dot: true, strictBrackets: true } as const;

/** The problems of a pattern, each naming its entry; none: it is valid. */
export function patternProblems(pattern: Record<string, unknown>): string[] {
  const entries = Object.entries(pattern);
  const problems: string[] = [];
  if (entries.length > PATTERN_LIMITS.entries) problems.push(`a pattern has at most ${PATTERN_LIMITS.entries} arguments`);
  for (const [path, glob] of entries) {
    if (path.length > PATTERN_LIMITS.pathChars || !PATH.test(path)) {
      problems.push(`"${path}" is not an argument path: write it as name, name.inner or name[0].inner`);
    }
    if (typeof glob !== 'string' || glob === '' || glob.length > PATTERN_LIMITS.globChars) {
      problems.push(`the glob of "${path}" must be a text of 1 to ${PATTERN_LIMITS.globChars} characters`);
      continue;
    }
    try {
      picomatch.makeRe(glob, GLOB_OPTIONS);
    } catch (error) {
      problems.push(`the glob of "${path}" (${JSON.stringify(glob)}) is not valid: ${(error as Error).message}`);
    }
  }
  return problems;
}

/** The pattern, or an invalid-input error listing what is wrong with it. */
export function checkPattern(pattern: Record<string, unknown>): RulePattern {
  const problems = patternProblems(pattern);
  if (problems.length > 0) throw invalidInput(`The rule's pattern is not valid: ${problems.join('; ')}.`);
  return pattern as RulePattern;
}

/** Whether a call's arguments match every entry of the pattern; an argument that is not there matches nothing. */
export function matchesPattern(pattern: RulePattern, args: unknown): boolean {
  return Object.entries(pattern).every(([path, glob]) => {
    const value = valueAt(args, path);
    if (value === undefined || value === null || typeof value === 'object') return false;
    return picomatch.isMatch(String(value), glob, GLOB_OPTIONS);
  });
}

/** A glob that matches exactly this text (its special characters escaped). */
function literalGlob(text: string): string {
  return text.replace(/[\\*?[\]{}()!+@|]/g, (c) => `\\${c}`);
}

/** Arguments that name what a call works on: a rule "like this call" keeps them and lets the rest vary. */
const NAMING_ARGUMENT = /(^|_)(id|ids|revid|name|path|kind|field)$/;

/**
 * The pattern of "calls like this one": the call's arguments that say what it works on (ids,
 * names, paths), each matched exactly; free text such as a new value or a description may
 * differ. A call without such arguments keeps every short plain argument.
 */
export function patternLike(args: unknown): RulePattern {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return {};
  const plain = Object.entries(args).filter(
    (entry): entry is [string, string | number | boolean] =>
      ['string', 'number', 'boolean'].includes(typeof entry[1]) && String(entry[1]).length <= 200,
  );
  const naming = plain.filter(([key]) => NAMING_ARGUMENT.test(key));
  return Object.fromEntries((naming.length > 0 ? naming : plain).map(([key, value]) => [key, literalGlob(String(value))]));
}

function valueAt(value: unknown, path: string): unknown {
  let at = value;
  for (const [, key, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = index !== undefined ? (Array.isArray(at) ? at[Number(index)] : undefined) : (at as Record<string, unknown>)[key ?? ''];
  }
  return at;
}
