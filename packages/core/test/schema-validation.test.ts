import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type ResponseFormat,
  SCHEMA_LIMITS,
  type SchemaProblem,
  validateAgainstSchema,
  validateResponseFormat,
} from '../src/schemas/schema-validation.ts';

const invoice = () => ({
  type: 'json_schema',
  json_schema: {
    name: 'invoice',
    schema: {
      type: 'object',
      properties: {
        invoice_number: { type: 'string', description: 'The number printed on the invoice' },
        total: { type: 'number' },
        line_items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { description: { type: 'string' }, amount: { type: 'number' } },
            required: ['description', 'amount'],
            additionalProperties: false,
          },
        },
      },
      required: ['invoice_number', 'total', 'line_items'],
      additionalProperties: false,
    },
    strict: true,
  },
});

/** The invoice response format with its schema replaced. */
const withSchema = (schema: unknown) => ({ ...invoice(), json_schema: { ...invoice().json_schema, schema } });

/** A strict object schema around the given properties. */
const object = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

function problemsOf(input: unknown): SchemaProblem[] {
  const result = validateResponseFormat(input);
  assert.equal(result.valid, false, 'expected the response format to be refused');
  return result.valid ? [] : result.errors;
}

function assertProblem(problems: SchemaProblem[], path: string, messagePart: string | RegExp): void {
  const match = problems.find(
    (p) => p.path === path && (typeof messagePart === 'string' ? p.message.includes(messagePart) : messagePart.test(p.message)),
  );
  assert.ok(match, `no problem at ${path} matching ${messagePart}; got ${JSON.stringify(problems, null, 1)}`);
}

function validInvoice(): ResponseFormat {
  const result = validateResponseFormat(invoice());
  assert.ok(result.valid, JSON.stringify(result));
  return result.responseFormat;
}

describe('validateResponseFormat', () => {
  test('accepts the invoice example and returns it unchanged', () => {
    assert.deepEqual(validInvoice(), invoice());
  });

  test('accepts nullable types, anyOf, enums and $defs references', () => {
    const schema = {
      ...object({
        currency: { type: ['string', 'null'], enum: ['EUR', 'USD', null] },
        buyer: { $ref: '#/$defs/party' },
        due: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
      }),
      $defs: { party: object({ name: { type: 'string', minLength: 1 } }) },
    };
    const result = validateResponseFormat(withSchema(schema));
    assert.ok(result.valid, JSON.stringify(result));
  });

  describe('strict rules', () => {
    test('an object without additionalProperties', () => {
      const schema = object({ address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } });
      assertProblem(
        problemsOf(withSchema(schema)),
        'json_schema.schema.properties.address',
        'object schemas need "additionalProperties": false',
      );
    });

    test('additionalProperties true', () => {
      const schema = { ...object({ a: { type: 'string' } }), additionalProperties: true };
      assertProblem(problemsOf(withSchema(schema)), 'json_schema.schema.additionalProperties', 'must be false in strict mode');
    });

    test('properties missing from required are named', () => {
      const schema = {
        ...object({ total: { type: 'number' }, currency: { type: 'string' }, n: { type: 'string' } }),
        required: ['n'],
      };
      assertProblem(
        problemsOf(withSchema(schema)),
        'json_schema.schema',
        '"required" must list every property; missing: total, currency',
      );
    });

    test('required naming an unknown property', () => {
      const schema = { ...object({ a: { type: 'string' } }), required: ['a', 'b'] };
      assertProblem(problemsOf(withSchema(schema)), 'json_schema.schema.required', 'names b, not in "properties"');
    });

    for (const [keyword, value, advice] of [
      ['oneOf', [{ type: 'string' }, { type: 'number' }], 'use "anyOf" instead'],
      ['allOf', [{ type: 'string' }], 'merge the subschemas'],
      ['not', { type: 'null' }, 'remove it'],
      ['patternProperties', { '^x': { type: 'string' } }, 'list the keys in "properties"'],
      ['uniqueItems', true, 'remove it'],
    ] as const) {
      test(`unsupported keyword ${keyword}`, () => {
        const schema = object({ value: { type: 'string', [keyword]: value } });
        const problems = problemsOf(withSchema(schema));
        assertProblem(
          problems,
          `json_schema.schema.properties.value.${keyword}`,
          `"${keyword}" is not supported in strict mode; ${advice}`,
        );
      });
    }

    test('an unknown type name, with a hint for a common alias', () => {
      const problems = problemsOf(withSchema(object({ count: { type: 'int' }, note: { type: 'strnig' } })));
      assertProblem(problems, 'json_schema.schema.properties.count.type', '"int" is not a type; use integer');
      assertProblem(problems, 'json_schema.schema.properties.note.type', /"strnig" is not a type; use one of string, number/);
    });

    test('an array without items', () => {
      assertProblem(
        problemsOf(withSchema(object({ tags: { type: 'array' } }))),
        'json_schema.schema.properties.tags',
        'array schemas need "items"',
      );
    });

    test('anyOf at the root', () => {
      const schema = { anyOf: [object({ a: { type: 'string' } }), object({ b: { type: 'string' } })] };
      assertProblem(problemsOf(withSchema(schema)), 'json_schema.schema.anyOf', 'the root schema cannot be "anyOf"');
    });

    test('a root that is not an object', () => {
      const problems = problemsOf(withSchema({ type: 'array', items: { type: 'string' } }));
      assertProblem(problems, 'json_schema.schema.type', 'the root schema must have "type": "object" (it has "array")');
    });

    test('a $ref that points nowhere', () => {
      const problems = problemsOf(withSchema(object({ buyer: { $ref: '#/$defs/party' } })));
      assertProblem(problems, 'json_schema.schema.properties.buyer.$ref', '"#/$defs/party" does not point inside this schema');
    });

    test('rules apply inside items, anyOf and $defs', () => {
      const schema = {
        ...object({ list: { type: 'array', items: { type: 'object', properties: {} } }, maybe: { anyOf: [{ type: 'array' }] } }),
        $defs: { loose: { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false } },
      };
      const problems = problemsOf(withSchema(schema));
      assertProblem(problems, 'json_schema.schema.properties.list.items', '"additionalProperties": false');
      assertProblem(problems, 'json_schema.schema.properties.maybe.anyOf.0', 'array schemas need "items"');
      assertProblem(problems, 'json_schema.schema.$defs.loose', 'missing: x');
    });
  });

  describe('envelope', () => {
    test('wrong type', () => {
      assertProblem(problemsOf({ ...invoice(), type: 'json_object' }), 'type', 'must be "json_schema" (it is "json_object")');
    });

    test('missing name', () => {
      const input = invoice();
      const { name: _name, ...rest } = input.json_schema;
      assertProblem(problemsOf({ ...input, json_schema: rest }), 'json_schema.name', 'is required');
    });

    test('name with bad characters', () => {
      const input = invoice();
      input.json_schema.name = 'my invoice!';
      assertProblem(problemsOf(input), 'json_schema.name', 'must be 1 to 64 letters, digits, "_" or "-" (it is "my invoice!")');
    });

    test('strict false or missing', () => {
      const off = invoice() as { json_schema: Record<string, unknown> };
      off.json_schema.strict = false;
      assertProblem(problemsOf(off), 'json_schema.strict', 'must be true (it is false)');
      delete off.json_schema.strict;
      assertProblem(problemsOf(off), 'json_schema.strict', 'must be true (it is missing)');
    });

    test('unknown keys at both levels are named', () => {
      const input = { ...invoice(), extra: 1, json_schema: { ...invoice().json_schema, description: 'x' } };
      const problems = problemsOf(input);
      assertProblem(problems, 'extra', 'is not allowed; a response format has only "type" and "json_schema"');
      assertProblem(problems, 'json_schema.description', 'json_schema.schema.description');
    });

    test('not an object, or without a schema', () => {
      assertProblem(problemsOf('invoice'), '', 'must be an object like');
      assertProblem(problemsOf({ type: 'json_schema' }), 'json_schema', 'must be an object with "name"');
      assertProblem(problemsOf(withSchema([])), 'json_schema.schema', 'must be a JSON Schema object');
    });
  });

  test('invalid draft-07 is reported with paths', () => {
    const schema = {
      ...object({ total: { type: 5 }, n: { type: 'number', minimum: 'a' }, s: { type: 'string', maxLength: -1 } }),
      required: 'x',
    };
    const problems = problemsOf(withSchema(schema));
    assertProblem(problems, 'json_schema.schema.properties.total.type', '5 is not a type; use one of string, number');
    assertProblem(problems, 'json_schema.schema.properties.n.minimum', 'must be number');
    assertProblem(problems, 'json_schema.schema.required', 'must be array');
    assertProblem(problems, 'json_schema.schema.properties.s.maxLength', 'must be >= 0');
    assert.equal(
      problems.filter((p) => p.path.endsWith('total.type')).length,
      1,
      'the strict rule replaces the meta-schema error',
    );
  });

  test('an invalid pattern', () => {
    const problems = problemsOf(withSchema(object({ code: { type: 'string', pattern: '([a-z]' } })));
    assertProblem(problems, 'json_schema.schema.properties.code.pattern', 'is not a valid regular expression');
  });

  test('patterns RE2 cannot run (lookaround, backreferences) are refused at their path', () => {
    const problems = problemsOf(
      withSchema(
        object({
          code: { type: 'string', pattern: '^(?=.*\\d)[a-z0-9]+$' },
          pair: { type: 'string', pattern: '^(?<c>a)\\k<c>$' },
          items: { type: 'array', items: { type: 'string', pattern: '(a)\\1' } },
        }),
      ),
    );
    const noLookaround = 'patterns run on a linear-time engine (RE2), which has no lookahead, lookbehind or backreferences';
    assertProblem(problems, 'json_schema.schema.properties.code.pattern', noLookaround);
    assertProblem(problems, 'json_schema.schema.properties.pair.pattern', noLookaround);
    assertProblem(problems, 'json_schema.schema.properties.items.items.pattern', noLookaround);
  });

  describe('limits', () => {
    test('a 1 MB schema is refused by size', () => {
      const schema = object({ a: { type: 'string', description: 'x'.repeat(1024 * 1024) } });
      const problems = problemsOf(withSchema(schema));
      assert.equal(problems.length, 1);
      assertProblem(problems, '', new RegExp(`^The schema is \\d+ bytes; the limit is ${SCHEMA_LIMITS.maxBytes}\\. Split it`));
    });

    test('the size counted equals the JSON length', () => {
      const input = withSchema(object({ a: { type: 'string', description: 'é'.repeat(SCHEMA_LIMITS.maxBytes) } }));
      const bytes = Buffer.byteLength(JSON.stringify(input));
      assertProblem(problemsOf(input), '', `The schema is ${bytes} bytes`);
    });

    test('100-deep nesting is refused by depth', () => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < 50; i++) schema = object({ child: schema });
      const problems = problemsOf(withSchema(schema));
      assert.equal(problems.length, 1);
      assertProblem(problems, '', `levels deep (objects and arrays inside each other); the limit is ${SCHEMA_LIMITS.maxDepth}`);
    });

    test('a 10,000-deep object does not overflow the stack', () => {
      let nested: Record<string, unknown> = {};
      for (let i = 0; i < 10_000; i++) nested = { a: nested };
      assertProblem(problemsOf(withSchema(nested)), '', 'The schema nests 10003 levels deep');
    });

    test('too many properties', () => {
      const properties = Object.fromEntries(
        Array.from({ length: SCHEMA_LIMITS.maxProperties + 1 }, (_, i) => [`p${i}`, { type: 'string' }]),
      );
      assertProblem(problemsOf(withSchema(object(properties))), '', `has ${SCHEMA_LIMITS.maxProperties + 1} properties in total`);
    });
  });
});

describe('validateAgainstSchema', () => {
  const data = () => ({ invoice_number: 'INV-1', total: 12.5, line_items: [{ description: 'Pens', amount: 12.5 }] });

  test('a pattern with nested quantifiers runs in linear time on a long value', () => {
    // On the backtracking engine this check would not finish: the test hanging is the failure.
    const result = validateResponseFormat(withSchema(object({ code: { type: 'string', pattern: '^(a+)+$' } })));
    assert.ok(result.valid, JSON.stringify(result));
    assert.deepEqual(validateAgainstSchema(result.responseFormat, { code: `${'a'.repeat(50_000)}!` }), {
      valid: false,
      errors: [{ path: 'code', message: 'must match pattern "^(a+)+$"' }],
    });
    assert.deepEqual(validateAgainstSchema(result.responseFormat, { code: 'a'.repeat(50_000) }), { valid: true, errors: [] });
  });

  test('patterns keep their ECMAScript meaning: escapes, classes, named groups, anchors', () => {
    const format = validateResponseFormat(
      withSchema(object({ code: { type: 'string', pattern: '^(?<cc>[A-Z]{2})-\\d{3}\\u00e9/x$' } })),
    );
    assert.ok(format.valid, JSON.stringify(format));
    assert.equal(validateAgainstSchema(format.responseFormat, { code: 'FR-123é/x' }).valid, true);
    for (const code of ['fr-123é/x', 'FR-12é/x', 'FR-123e/x', 'xFR-123é/x', 'FR-123é/xy']) {
      assert.equal(validateAgainstSchema(format.responseFormat, { code }).valid, false, code);
    }
  });

  test('valid data', () => {
    assert.deepEqual(validateAgainstSchema(validInvoice(), data()), { valid: true, errors: [] });
  });

  test('a wrong type is reported at its dot path', () => {
    const wrong = data();
    (wrong.line_items[0] as Record<string, unknown>).amount = '12.50';
    assert.deepEqual(validateAgainstSchema(validInvoice(), wrong), {
      valid: false,
      errors: [{ path: 'line_items.0.amount', message: 'must be number' }],
    });
  });

  test('a missing required property is named', () => {
    const { total: _total, ...missing } = data();
    const result = validateAgainstSchema(validInvoice(), missing);
    assert.equal(result.valid, false);
    assertProblem(result.errors, 'total', 'required property "total" is missing');
  });

  test('an extra property is refused', () => {
    const result = validateAgainstSchema(validInvoice(), { ...data(), note: 'x' });
    assert.equal(result.valid, false);
    assertProblem(result.errors, 'note', 'property "note" is not in the schema');
  });

  test('a response format not returned by validateResponseFormat is compiled on first use', () => {
    const responseFormat = invoice() as ResponseFormat;
    assert.equal(validateAgainstSchema(responseFormat, data()).valid, true);
    assert.equal(validateAgainstSchema(responseFormat, { ...data(), total: 'x' }).valid, false);
  });
});
