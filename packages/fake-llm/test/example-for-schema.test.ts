import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exampleForSchema } from '../src/index.ts';

test('primitives', () => {
  assert.equal(exampleForSchema({ type: 'string' }), 'example');
  assert.equal(exampleForSchema({ type: 'number' }), 0);
  assert.equal(exampleForSchema({ type: 'integer' }), 0);
  assert.equal(exampleForSchema({ type: 'boolean' }), false);
  assert.equal(exampleForSchema({ type: 'null' }), null);
  assert.deepEqual(exampleForSchema({ type: 'array', items: { type: 'string' } }), []);
});

test('objects carry all required properties, and only those', () => {
  assert.deepEqual(
    exampleForSchema({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'object', properties: { c: { type: 'integer' }, d: { type: 'string' } }, required: ['c'] },
        optional: { type: 'string' },
      },
      required: ['a', 'b'],
    }),
    { a: 'example', b: { c: 0 } },
  );
});

test('nullable anyOf takes the first non-null branch; type arrays skip null', () => {
  assert.equal(exampleForSchema({ anyOf: [{ type: 'null' }, { type: 'string' }] }), 'example');
  assert.equal(exampleForSchema({ oneOf: [{ type: 'null' }, { type: 'boolean' }] }), false);
  assert.equal(exampleForSchema({ type: ['null', 'number'] }), 0);
  assert.equal(exampleForSchema({ anyOf: [{ type: 'null' }] }), null);
});

test('const, enum, $ref, allOf and constraints', () => {
  assert.equal(exampleForSchema({ const: 'fixed' }), 'fixed');
  assert.equal(exampleForSchema({ type: 'string', enum: ['red', 'green'] }), 'red');
  assert.deepEqual(
    exampleForSchema({
      type: 'object',
      properties: { item: { $ref: '#/$defs/item' } },
      required: ['item'],
      $defs: { item: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
    }),
    { item: { id: 'example' } },
  );
  assert.deepEqual(
    exampleForSchema({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
      ],
    }),
    { a: 'example', b: 0 },
  );
  assert.equal(exampleForSchema({ type: 'integer', minimum: 3 }), 3);
  assert.equal(exampleForSchema({ type: 'number', exclusiveMinimum: 0 }), 1);
  assert.equal(exampleForSchema({ type: 'number', maximum: -2 }), -2);
  assert.equal(exampleForSchema({ type: 'string', minLength: 10 }), 'examplexxx');
  assert.equal(exampleForSchema({ type: 'string', format: 'date-time' }), '1970-01-01T00:00:00Z');
  assert.deepEqual(exampleForSchema({ type: 'array', items: { type: 'integer' }, minItems: 2 }), [0, 0]);
});

test('recursive schemas terminate', () => {
  const schema = {
    type: 'object',
    properties: { child: { $ref: '#' } },
    required: ['child'],
  };
  const value = exampleForSchema(schema);
  assert.equal(typeof value, 'object');
});
