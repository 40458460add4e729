/**
 * The one way user schemas are compiled. Their patterns ("pattern", and "patternProperties" keys)
 * run on RE2 (re2js), whose matching time grows linearly with the input: on JavaScript's
 * backtracking engine a pattern such as "^(a+)+$" checked against a long model answer or an edited
 * value holds the event loop for minutes. Formats are not checked (they are hints for the model),
 * so no format regex runs at all.
 */
import { Ajv, type CodeOptions } from 'ajv';
import { RE2JS } from 're2js';

/**
 * With the "u" flag (as Ajv compiles patterns) a "\k" escape can only be a named backreference;
 * re2js's translation would quietly turn it into the letter "k", changing what the pattern means.
 */
const NAMED_BACKREFERENCE = /(?:^|[^\\])(?:\\\\)*\\k/;

/** A JSON Schema pattern (ECMAScript syntax) on RE2; throws when RE2 cannot run it. */
function compileLinear(pattern: string): RE2JS {
  if (NAMED_BACKREFERENCE.test(pattern)) throw new Error('backreferences (\\k<name>) are not supported');
  return RE2JS.compile(RE2JS.translateRegExp(pattern));
}

/** Ajv calls this with the "u" flag, which RE2 needs not: it always matches code points. */
const linearRegExp: NonNullable<CodeOptions['regExp']> = Object.assign((pattern: string) => compileLinear(pattern), {
  code: 'linearRegExp',
});

/**
 * What is wrong with a schema's pattern, in words a person or a model can act on; undefined when
 * it can be used. It must be valid ECMAScript (what JSON Schema and the providers read) and within
 * what RE2 runs.
 */
export function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    return `is not a valid regular expression (${(error as Error).message}); fix it or describe the format in "description"`;
  }
  try {
    compileLinear(pattern);
  } catch (error) {
    return (
      `cannot be used: patterns run on a linear-time engine (RE2), which has no lookahead, lookbehind or ` +
      `backreferences (${(error as Error).message}); rewrite it without them or describe the format in "description"`
    );
  }
  return undefined;
}

/* Unknown keywords are reported by the strict rules, not by Ajv. */
export const newSchemaAjv = (): Ajv =>
  new Ajv({ strict: false, allErrors: true, validateFormats: false, logger: false, code: { regExp: linearRegExp } });
