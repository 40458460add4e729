export interface JsonSyntaxError {
  message: string;
  /** 1-based; absent only if the text could not be located, which a valid scanner never leaves. */
  line?: number;
  column?: number;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError };

/**
 * Parses JSON, and on failure says where and what is wrong. Browsers word (and locate) JSON.parse
 * errors differently, so a small scanner finds the first problem itself.
 */
export function parseJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const problem = findSyntaxProblem(text);
    if (!problem) {
      return { ok: false, error: { message: error instanceof Error ? error.message : 'The JSON cannot be read.' } };
    }
    return { ok: false, error: { message: problem.message, ...lineAndColumn(text, problem.index) } };
  }
}

function lineAndColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}

class SyntaxProblem {
  readonly index: number;
  readonly message: string;

  constructor(index: number, message: string) {
    this.index = index;
    this.message = message;
  }
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'];

/** Walks the JSON grammar and returns the first place it breaks, or null if the text is valid JSON. */
function findSyntaxProblem(text: string): SyntaxProblem | null {
  let i = 0;
  const found = () => (i >= text.length ? 'the end of the text' : `“${text[i]}”`);
  const fail = (message: string): never => {
    throw new SyntaxProblem(i, message);
  };
  const skipWhitespace = () => {
    while (i < text.length && WHITESPACE.has(text[i] ?? '')) i += 1;
  };

  function string() {
    i += 1;
    while (i < text.length) {
      const c = text[i] ?? '';
      if (c === '"') {
        i += 1;
        return;
      }
      if (c === '\\') {
        const escaped = text[i + 1] ?? '';
        if (ESCAPES.has(escaped)) i += 2;
        else if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else fail(`“\\${escaped}” is not a valid escape in a string`);
        continue;
      }
      if (c < ' ') fail('A line break or tab inside a string must be written as \\n or \\t');
      i += 1;
    }
    fail('The string is not closed: add the closing double quote');
  }

  function number() {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) fail(`Expected a number but found ${found()}`);
    i = NUMBER.lastIndex;
  }

  function members(close: '}' | ']', member: () => void, after: string) {
    i += 1;
    skipWhitespace();
    if (text[i] === close) {
      i += 1;
      return;
    }
    for (;;) {
      member();
      skipWhitespace();
      if (text[i] === close) {
        i += 1;
        return;
      }
      if (text[i] !== ',') fail(`Expected “,” or “${close}” after ${after} but found ${found()}`);
      i += 1;
      skipWhitespace();
      if (text[i] === close) fail(`Remove the comma before “${close}”: JSON allows no trailing comma`);
    }
  }

  function property() {
    skipWhitespace();
    if (text[i] !== '"') fail(`Expected a property name in double quotes but found ${found()}`);
    string();
    skipWhitespace();
    if (text[i] !== ':') fail(`Expected “:” after the property name but found ${found()}`);
    i += 1;
    value();
  }

  function value() {
    skipWhitespace();
    const c = text[i] ?? '';
    if (c === '{') return members('}', property, 'a property value');
    if (c === '[') return members(']', value, 'an array item');
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    const literal = LITERALS.find((word) => text.startsWith(word, i));
    if (literal) {
      i += literal.length;
      return;
    }
    fail(`Expected a value but found ${found()}`);
  }

  try {
    value();
    skipWhitespace();
    if (i < text.length) fail(`Unexpected ${found()} after the end of the JSON value`);
    return null;
  } catch (error) {
    if (error instanceof SyntaxProblem) return error;
    throw error;
  }
}
