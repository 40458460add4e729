import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PermissionRule } from '@docagent/core';
import { z } from 'zod';
import {
  type Decision,
  type DeclaredWrite,
  decide,
  defineTool,
  type Permissions,
  type ToolContext,
  type ToolDefinition,
} from '../src/index.ts';

const readTool = defineTool({
  name: 'read_it',
  description: 'Reads.',
  input: z.strictObject({}),
  access: 'read_only',
  run: async () => ({}),
});
const makeTool = defineTool({
  name: 'make_it',
  description: 'Makes or changes a thing by name.',
  input: z.strictObject({ name: z.string() }),
  access: 'read_write',
  target: async (_c, input) => ({
    subject: false,
    creator: input.name === 'theirs' ? 'alice@example.test' : input.name === 'mine' ? 'run-7' : null,
  }),
  run: async () => ({}),
});
const onDocTool = defineTool({
  name: 'on_doc',
  description: 'Works on a document.',
  input: z.strictObject({ document_id: z.string().optional() }),
  access: 'read_write',
  target: async (context, input) => ({
    subject: (input.document_id ?? context.subject.id) === context.subject.id,
    creator: null,
  }),
  run: async () => ({}),
});
const deleteTool = defineTool({
  name: 'delete_it',
  description: 'Deletes.',
  input: z.strictObject({ id: z.string() }),
  access: 'read_write',
  run: async () => ({}),
});

const context = {
  access: { orgId: 'o', role: 'user', userId: null, actor: 'run-7' },
  subject: { kind: 'document', id: 'doc-1' },
  workingState: {},
} as unknown as ToolContext;
const person = (over: Partial<Permissions> = {}): Permissions => ({
  autoApprove: false,
  autoApprovedTools: [],
  rules: [],
  ...over,
});
const headless = (declaredWrites: DeclaredWrite[]): Permissions => ({ ...person(), declaredWrites });

test("a person's turn: reads run, writes ask unless allowed ahead", async () => {
  assert.equal((await decide(readTool, {}, person(), context)).effect, 'allow');
  assert.equal((await decide(deleteTool, { id: 'x' }, person(), context)).effect, 'ask');
  assert.equal((await decide(deleteTool, { id: 'x' }, person({ autoApprove: true }), context)).effect, 'allow');
  assert.equal((await decide(deleteTool, { id: 'x' }, person({ autoApprovedTools: ['delete_it'] }), context)).effect, 'allow');
});

test('a headless run makes its declared writes on their targets and nothing else; it never asks', async () => {
  const writes = headless([
    { tool: 'make_it', target: 'own' },
    { tool: 'on_doc', target: 'subject' },
  ]);
  assert.equal((await decide(readTool, {}, writes, context)).effect, 'allow');
  const undeclared = await decide(deleteTool, { id: 'x' }, writes, context);
  assert.equal(undeclared.effect, 'deny');
  assert.match(undeclared.reason, /may make only its declared writes .*delete_it is not one of them/);
  assert.equal((await decide(makeTool, { name: 'new' }, writes, context)).effect, 'allow');
  assert.equal((await decide(makeTool, { name: 'mine' }, writes, context)).effect, 'allow');
  const theirs = await decide(makeTool, { name: 'theirs' }, writes, context);
  assert.equal(theirs.effect, 'deny');
  assert.match(theirs.reason, /only as make_it of what this run created; .*use a new name instead/);
  assert.equal((await decide(onDocTool, {}, writes, context)).effect, 'allow');
  assert.equal((await decide(onDocTool, { document_id: 'doc-1' }, writes, context)).effect, 'allow');
  assert.equal((await decide(onDocTool, { document_id: 'doc-2' }, writes, context)).effect, 'deny');
  // Arguments whose target cannot be read are not given the benefit of the doubt.
  assert.equal((await decide(makeTool, { name: 7 }, writes, context)).effect, 'deny');
  // Auto-approve is for a person's own turn: a declaration outranks it.
  assert.equal((await decide(deleteTool, { id: 'x' }, { ...writes, autoApprove: true }, context)).effect, 'deny');
});

test('a declared write without a target allows any call of the tool; one on a tool that cannot name its target, none', async () => {
  assert.equal((await decide(deleteTool, { id: 'x' }, headless([{ tool: 'delete_it' }]), context)).effect, 'allow');
  assert.equal((await decide(deleteTool, { id: 'x' }, headless([{ tool: 'delete_it', target: 'own' }]), context)).effect, 'deny');
});

test('a read that spends model calls asks first, is allowed ahead like a write, and is denied a headless run that did not declare it', async () => {
  const costly = defineTool({
    name: 'infer_it',
    description: 'Reads with the model.',
    input: z.strictObject({}),
    access: 'read_only',
    asksFirst: 'infer_it makes a model call per sample',
    run: async () => ({}),
  });
  assert.deepEqual(await decide(costly, {}, person(), context), {
    effect: 'ask',
    reason: 'infer_it makes a model call per sample',
  });
  assert.equal((await decide(costly, {}, person({ autoApprovedTools: ['infer_it'] }), context)).effect, 'allow');
  assert.equal((await decide(costly, {}, headless([]), context)).effect, 'deny');
  assert.equal((await decide(costly, {}, headless([{ tool: 'infer_it' }]), context)).effect, 'allow');
});

let ruleCount = 0;
const rule = (over: Partial<PermissionRule> & Pick<PermissionRule, 'tool' | 'effect'>): PermissionRule => ({
  id: `rule-${++ruleCount}`,
  orgId: 'o',
  userId: 'u-1',
  pattern: {},
  note: '',
  createdBy: 'u-1',
  createdAt: new Date(0),
  ...over,
});

test('rules: deny before ask before allow, by tool and argument globs, the organization and the person alike', async () => {
  const table: Array<[string, PermissionRule[], ToolDefinition, unknown, Permissions['planMode'], Decision['effect'], string?]> =
    [];
  const allowOnDoc = rule({ tool: 'on_doc', effect: 'allow', pattern: { document_id: 'doc-*' } });
  const denyDoc9 = rule({ tool: 'on_doc', effect: 'deny', pattern: { document_id: 'doc-9' }, userId: null, note: 'archived' });
  const allowAll = rule({ tool: '*', effect: 'allow', userId: null });
  const denyReads = rule({ tool: 'read_it', effect: 'deny' });
  table.push(
    ['no rule: a write asks', [], onDocTool, { document_id: 'doc-1' }, false, 'ask'],
    [
      'an allow rule whose glob matches lets it through',
      [allowOnDoc],
      onDocTool,
      { document_id: 'doc-1' },
      false,
      'allow',
      allowOnDoc.id,
    ],
    [
      'an allow rule whose glob does not match leaves it asking',
      [allowOnDoc],
      onDocTool,
      { document_id: 'memo-1' },
      false,
      'ask',
    ],
    ['an argument the call lacks matches no glob', [allowOnDoc], onDocTool, {}, false, 'ask'],
    [
      "the organization's deny beats the person's allow",
      [allowOnDoc, denyDoc9],
      onDocTool,
      { document_id: 'doc-9' },
      false,
      'deny',
      denyDoc9.id,
    ],
    ['a deny rule refuses even a read-only tool', [denyReads], readTool, {}, false, 'deny', denyReads.id],
    ['a rule of another tool does not apply', [allowOnDoc], deleteTool, { id: 'doc-1' }, false, 'ask'],
    [
      '* covers every tool; the most specific allow is the one named',
      [allowAll, allowOnDoc],
      onDocTool,
      { document_id: 'doc-1' },
      false,
      'allow',
      allowOnDoc.id,
    ],
    ['plan mode refuses a write, even one a rule allows', [allowAll], deleteTool, { id: 'x' }, true, 'deny'],
    ['plan mode lets reads run', [], readTool, {}, true, 'allow'],
  );
  for (const [what, rules, tool, input, planMode, effect, ruleId] of table) {
    const decision = await decide(tool, input, person({ rules, planMode }), context);
    assert.equal(decision.effect, effect, what);
    assert.equal(decision.ruleId, ruleId, `${what}: the rule that decided`);
  }
  const denied = await decide(onDocTool, { document_id: 'doc-9' }, person({ rules: [denyDoc9] }), context);
  assert.equal(denied.reason, 'Refused by the organization\'s rule to deny on_doc where document_id matches "doc-9" (archived).');
  const planned = await decide(deleteTool, { id: 'x' }, person({ planMode: true }), context);
  assert.match(planned.reason, /^Plan mode: nothing may be changed until the person approves your plan/);
});

test('rules never widen a headless run beyond its declared writes, but its deny rules still hold', async () => {
  const allowAll = rule({ tool: '*', effect: 'allow', userId: null });
  const denyMake = rule({ tool: 'make_it', effect: 'deny', userId: null });
  const run = { ...headless([{ tool: 'make_it' }]), rules: [allowAll] };
  assert.equal((await decide(deleteTool, { id: 'x' }, run, context)).effect, 'deny');
  assert.equal((await decide(makeTool, { name: 'new' }, run, context)).effect, 'allow');
  assert.equal((await decide(makeTool, { name: 'new' }, { ...run, rules: [denyMake] }, context)).effect, 'deny');
});
