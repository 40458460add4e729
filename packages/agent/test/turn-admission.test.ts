import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createOrganization, createUser, type Database } from '@docagent/core';
import { openTestDatabase } from '@docagent/core/testing';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { TurnAdmission } from '../src/engine/turn-admission.ts';
import {
  AgentEngine,
  type AgentEvent,
  type LlmGateway,
  type Pack,
  SubjectCatalog,
  ThreadStore,
  TurnStore,
} from '../src/index.ts';
import { offlineServices } from './offline-services.ts';
import { gatewayOf, streamPartsOf } from './scripted-gateway.ts';

describe('TurnAdmission', () => {
  test('admits up to its limit; the others wait their turn, in the order they came', async () => {
    const admission = new TurnAdmission(2);
    const first = await admission.enter();
    const second = await admission.enter();
    const admitted: string[] = [];
    const third = admission.enter().then((leave) => {
      admitted.push('third');
      return leave;
    });
    const fourth = admission.enter().then((leave) => {
      admitted.push('fourth');
      return leave;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(admitted, []);
    first();
    (await third)();
    second();
    (await fourth)();
    assert.deepEqual(admitted, ['third', 'fourth']);
  });

  test('a place given up twice counts once', async () => {
    const admission = new TurnAdmission(1);
    const leave = await admission.enter();
    leave();
    leave();
    const next = await admission.enter();
    let late = false;
    const after = admission.enter().then(() => {
      late = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(late, false, 'the second leave must not have freed a second place');
    next();
    await after;
  });

  test('refuses a limit below one', () => {
    assert.throws(() => new TurnAdmission(0), /at least 1/);
  });
});

let database: Database;
let orgId: string;
let userId: string;
const access = () => ({ orgId, role: 'admin' as const, userId });

/** A subject kind with no tools and no row behind it: what is tested is the engine's own. */
const plainPack: Pack = {
  name: 'plain',
  serves: ['plain'],
  tools: [],
  findSubject: async () => ({ title: 'plain' }),
  section: async () => '',
};

before(async () => {
  database = await openTestDatabase();
  orgId = (await createOrganization(database.db, { name: 'Admission' })).id;
  userId = (await createUser(database.db, { email: 'admission@example.test', password: 'a long enough password' })).id;
});
after(async () => {
  await database.close();
});

describe('the engine starts turns a few at a time', () => {
  test('one turn starting at a time: the next starts once it calls its model, not once it ends', async () => {
    // Turns between their turn_started frame and their model call, now and at most.
    let starting = 0;
    let mostStarting = 0;
    let releaseFirstCall: () => void = () => {};
    const firstCallHeld = new Promise<void>((resolve) => {
      releaseFirstCall = resolve;
    });
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        starting -= 1;
        calls += 1;
        const call = calls;
        if (call === 1) await firstCallHeld;
        return { stream: convertArrayToReadableStream(streamPartsOf({ text: `Answer ${call}.` })) };
      },
    });
    const base = gatewayOf(model);
    // A model the organization does not have fails its turn after the turn was admitted.
    const gateway: LlmGateway = {
      ...base,
      resolve: async (org, wanted) => {
        if (wanted === 'openai:missing') throw new Error('openai:missing is not one of the organization’s models.');
        return base.resolve(org, wanted);
      },
      forRun: () => gateway,
    };
    const engine = new AgentEngine({
      llm: gateway,
      subjects: new SubjectCatalog([plainPack]),
      turns: new TurnStore(database.db, 300),
      threads: new ThreadStore(database.db),
      heartbeatMs: 10_000,
      services: offlineServices(database.db),
      turnStartsAtOnce: 1,
    });
    const start = (model?: string) =>
      engine.start(
        { access: access(), subject: { kind: 'plain', id: randomUUID() }, messages: [{ role: 'user', content: 'Go.' }], model },
        (event: AgentEvent) => {
          if (event.type !== 'turn_started') return;
          starting += 1;
          mostStarting = Math.max(mostStarting, starting);
        },
      );

    const failing = start('openai:missing');
    const first = start();
    const others = [start(), start(), start(), start()];
    await assert.rejects(failing, /not one of the organization/);
    // The others start and end while the first turn's model call is still out.
    const answers = (await Promise.all(others)) as Array<{ text: string }>;
    assert.deepEqual(answers.map((a) => a.text).sort(), ['Answer 2.', 'Answer 3.', 'Answer 4.', 'Answer 5.']);
    assert.equal(mostStarting, 1, 'no two turns were starting at the same time');
    releaseFirstCall();
    assert.equal(((await first) as { text: string }).text, 'Answer 1.');
  });
});
