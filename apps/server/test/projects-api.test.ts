import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;

before(async () => {
  t = await startTestApp();
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
});
after(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Project {
  project_id: string;
  name: string;
  description: string;
  note_count: number;
  document_count: number;
  documents: Array<{ document_id: string; document_name: string; mime_type: string | null; added_at: string }>;
  created_by: string;
  created_at: string;
  updated_at: string;
}
interface Note {
  note_id: string;
  project_id: string;
  name: string;
  standing_instruction: string;
  version: number;
  size: number;
  content: string;
  created_by: string;
  updated_by: string;
}

const org = (who = alice) => `/v0/orgs/${who.org.id}`;
const call = (method: Method, url: string, payload?: unknown, token = alice.token) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

async function ok<T>(res: Awaited<ReturnType<typeof call>>): Promise<T> {
  assert.equal(res.statusCode, 200, res.body);
  return json<T>(res);
}

function refused(res: Awaited<ReturnType<typeof call>>, status: number, detail?: RegExp): void {
  assert.equal(res.statusCode, status, res.body);
  if (detail) assert.match(json<{ detail: string }>(res).detail, detail);
}

async function uploadText(name: string, text: string, token = alice.token, who = alice): Promise<string> {
  const body = await ok<{ documents: Array<{ document_id: string }> }>(
    await call('POST', `${org(who)}/documents`, { documents: [{ name, content: Buffer.from(text).toString('base64') }] }, token),
  );
  const id = body.documents[0]?.document_id;
  assert.ok(id);
  return id;
}

let trip: Project;

describe('projects', () => {
  test('create, read, list, update', async () => {
    trip = await ok<Project>(await call('POST', `${org()}/projects`, { name: 'Trip', description: 'A week in Lisbon' }));
    assert.equal(trip.name, 'Trip');
    assert.equal(trip.description, 'A week in Lisbon');
    assert.equal(trip.note_count, 0);
    assert.equal(trip.document_count, 0);
    assert.deepEqual(trip.documents, []);
    assert.equal(trip.created_by, 'alice@example.test');

    const read = await ok<Project>(await call('GET', `${org()}/projects/${trip.project_id}`));
    assert.deepEqual(read, trip);

    await ok(await call('POST', `${org()}/projects`, { name: 'Garden' }));
    const list = await ok<{ projects: Project[]; total_count: number; skip: number }>(
      await call('GET', `${org()}/projects?limit=1`),
    );
    assert.equal(list.total_count, 2);
    assert.equal(list.skip, 0);
    assert.deepEqual(
      list.projects.map((p) => p.name),
      ['Garden'],
    );
    const searched = await ok<{ projects: Project[] }>(await call('GET', `${org()}/projects?name_search=tri`));
    assert.deepEqual(
      searched.projects.map((p) => p.name),
      ['Trip'],
    );

    const updated = await ok<Project>(await call('PUT', `${org()}/projects/${trip.project_id}`, { description: 'Ten days' }));
    assert.equal(updated.name, 'Trip');
    assert.equal(updated.description, 'Ten days');
  });

  test('a name taken in the organization is a 409; another organization may use it', async () => {
    refused(await call('POST', `${org()}/projects`, { name: 'trip' }), 409, /A project named "Trip" already exists/);
    refused(await call('PUT', `${org()}/projects/${trip.project_id}`, { name: 'GARDEN' }), 409, /"Garden"/);
    await ok(await call('POST', `${org(bob)}/projects`, { name: 'Trip' }, bob.token));
  });

  test('documents are linked and unlinked; another organization’s document is 404', async () => {
    const documentId = await uploadText('itinerary.txt', 'Day 1: Alfama');
    const linked = await ok<Project>(
      await call('POST', `${org()}/projects/${trip.project_id}/documents`, { document_id: documentId }),
    );
    assert.equal(linked.document_count, 1);
    assert.deepEqual(
      linked.documents.map((d) => [d.document_id, d.document_name]),
      [[documentId, 'itinerary.txt']],
    );
    const listed = await ok<{ projects: Project[] }>(await call('GET', `${org()}/projects?name_search=trip`));
    assert.deepEqual(listed.projects[0]?.documents, linked.documents);
    const bobs = await uploadText('bob.txt', 'private', bob.token, bob);
    refused(
      await call('POST', `${org()}/projects/${trip.project_id}/documents`, { document_id: bobs }),
      404,
      /Document .* was not found/,
    );
    const unlinked = await ok<Project>(await call('DELETE', `${org()}/projects/${trip.project_id}/documents/${documentId}`));
    assert.equal(unlinked.document_count, 0);
    refused(await call('DELETE', `${org()}/projects/${trip.project_id}/documents/${documentId}`), 404);
    await ok(await call('GET', `${org()}/documents/${documentId}`));
  });

  test('another organization’s project is 404 on every route', async () => {
    const p = `${org(bob)}/projects/${trip.project_id}`;
    const mine = `${org()}/projects/${trip.project_id}`;
    // Bob's token cannot name Alice's organization, and in his own the project does not exist.
    refused(await call('GET', mine, undefined, bob.token), 404);
    refused(await call('GET', p, undefined, bob.token), 404, /Project .* was not found/);
    refused(await call('PUT', p, { name: 'Mine' }, bob.token), 404);
    refused(await call('DELETE', p, undefined, bob.token), 404);
    refused(await call('GET', `${p}/notes`, undefined, bob.token), 404);
    refused(await call('POST', `${p}/notes`, { name: 'x' }, bob.token), 404);
  });

  test('bad bodies and queries are 400, never 500', async () => {
    const cases: Array<[Method, string, unknown]> = [
      ['POST', `${org()}/projects`, {}],
      ['POST', `${org()}/projects`, { name: 5 }],
      ['POST', `${org()}/projects`, { name: 'x', extra: true }],
      ['POST', `${org()}/projects`, { name: '   ' }],
      ['POST', `${org()}/projects`, { name: 'n'.repeat(201) }],
      ['POST', `${org()}/projects`, { name: 'ok', description: 'd'.repeat(4001) }],
      ['POST', `${org()}/projects`, { name: 'nul\u0000' }],
      ['PUT', `${org()}/projects/${trip.project_id}`, { name: null }],
      ['PUT', `${org()}/projects/${trip.project_id}`, { owner: 'me' }],
      ['POST', `${org()}/projects/${trip.project_id}/documents`, {}],
      ['POST', `${org()}/projects/${trip.project_id}/documents`, { document_id: '' }],
      ['GET', `${org()}/projects?limit=0`, undefined],
      ['GET', `${org()}/projects?skip=-1`, undefined],
    ];
    for (const [method, url, body] of cases) {
      const res = await call(method, url, body);
      assert.equal(res.statusCode, 400, `${method} ${url} ${JSON.stringify(body)?.slice(0, 80)}: ${res.body}`);
    }
  });
});

describe('notes', () => {
  let notesUrl: string;
  let shopping: Note;

  before(() => {
    notesUrl = `${org()}/projects/${trip.project_id}/notes`;
  });

  test('create, read, list; the project counts them', async () => {
    shopping = await ok<Note>(
      await call('POST', notesUrl, { name: 'Shopping', content: '- milk\n', standing_instruction: 'Grouped by aisle' }),
    );
    assert.equal(shopping.version, 1);
    assert.equal(shopping.size, 7);
    assert.equal(shopping.content, '- milk\n');
    assert.equal(shopping.standing_instruction, 'Grouped by aisle');
    assert.equal(shopping.project_id, trip.project_id);
    assert.equal(shopping.created_by, 'alice@example.test');
    const empty = await ok<Note>(await call('POST', notesUrl, { name: 'Empty' }));
    assert.equal(empty.content, '');
    assert.equal(empty.standing_instruction, '');

    assert.deepEqual(await ok<Note>(await call('GET', `${notesUrl}/${shopping.note_id}`)), shopping);
    const list = await ok<{ notes: Array<Record<string, unknown>> }>(await call('GET', notesUrl));
    assert.deepEqual(
      list.notes.map((n) => n.name),
      ['Empty', 'Shopping'],
    );
    assert.ok(list.notes.every((n) => !('content' in n)));
    const project = await ok<Project>(await call('GET', `${org()}/projects/${trip.project_id}`));
    assert.equal(project.note_count, 2);
  });

  test('a name used in the project is a 409 naming the note', async () => {
    refused(
      await call('POST', notesUrl, { name: 'SHOPPING', content: 'x' }),
      409,
      new RegExp(`A note named "Shopping" already exists in this project \\(note_id ${shopping.note_id}\\)`),
    );
  });

  test('updates make versions; versions, one version and the diff', async () => {
    const v2 = await ok<Note>(
      await call('PUT', `${notesUrl}/${shopping.note_id}`, { content: '- milk\n- bread\n', base_version: 1 }),
    );
    assert.equal(v2.version, 2);
    const renamed = await ok<Note>(await call('PUT', `${notesUrl}/${shopping.note_id}`, { name: 'Groceries' }));
    assert.equal(renamed.version, 2);
    assert.equal(renamed.name, 'Groceries');

    const versions = await ok<{ versions: Array<Record<string, unknown>> }>(
      await call('GET', `${notesUrl}/${shopping.note_id}/versions`),
    );
    assert.deepEqual(
      versions.versions.map((v) => [v.version, v.size, v.source, v.created_by]),
      [
        [2, 15, 'person', 'alice@example.test'],
        [1, 7, 'person', 'alice@example.test'],
      ],
    );
    const first = await ok<{ version: number; content: string }>(await call('GET', `${notesUrl}/${shopping.note_id}/versions/1`));
    assert.equal(first.content, '- milk\n');
    refused(await call('GET', `${notesUrl}/${shopping.note_id}/versions/7`), 404, /Version 7 of note/);

    const diff = await ok<{ from: number; to: number; diff: string; additions: number; deletions: number }>(
      await call('GET', `${notesUrl}/${shopping.note_id}/diff?from=1&to=2`),
    );
    assert.deepEqual([diff.from, diff.to, diff.additions, diff.deletions], [1, 2, 1, 0]);
    assert.equal(diff.diff, '--- Groceries (version 1)\n+++ Groceries (version 2)\n@@ -1,1 +1,2 @@\n - milk\n+- bread\n');
  });

  test('a stale base_version is a 409 and writes nothing', async () => {
    const res = await call('PUT', `${notesUrl}/${shopping.note_id}`, { content: 'overwrite', base_version: 1 });
    refused(res, 409, /The note "Groceries" changed since version 1 \(it is at version 2 now\); nothing was written/);
    assert.equal(json<{ code: string }>(res).code, 'conflict');
    const now = await ok<Note>(await call('GET', `${notesUrl}/${shopping.note_id}`));
    assert.equal(now.content, '- milk\n- bread\n');
  });

  test('two PUTs on the same base_version: one 200, one 409', async () => {
    const note = await ok<Note>(await call('POST', notesUrl, { name: 'Contested', content: 'base' }));
    const answers = await Promise.all(
      ['left', 'right'].map((content) => call('PUT', `${notesUrl}/${note.note_id}`, { content, base_version: 1 })),
    );
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 409]);
  });

  test('another organization’s note is 404', async () => {
    const bobsNotes = `${org(bob)}/projects/${trip.project_id}/notes/${shopping.note_id}`;
    for (const [method, url, body] of [
      ['GET', bobsNotes, undefined],
      ['PUT', bobsNotes, { content: 'mine' }],
      ['DELETE', bobsNotes, undefined],
      ['GET', `${bobsNotes}/versions`, undefined],
      ['GET', `${bobsNotes}/versions/1`, undefined],
      ['GET', `${bobsNotes}/diff?from=1&to=2`, undefined],
    ] as Array<[Method, string, unknown]>) {
      refused(await call(method, url, body, bob.token), 404);
    }
    // Alice's note under another of her projects is not found either.
    const garden = (await ok<{ projects: Project[] }>(await call('GET', `${org()}/projects?name_search=garden`))).projects[0];
    refused(await call('GET', `${org()}/projects/${garden?.project_id}/notes/${shopping.note_id}`), 404, /Note .* was not found/);
  });

  test('bad bodies, versions and queries are 400, never 500', async () => {
    const note = `${notesUrl}/${shopping.note_id}`;
    const cases: Array<[Method, string, unknown, number]> = [
      ['POST', notesUrl, {}, 400],
      ['POST', notesUrl, { name: '' }, 400],
      ['POST', notesUrl, { name: 'x', content: 5 }, 400],
      ['POST', notesUrl, { name: 'x', source: 'agent' }, 400],
      ['POST', notesUrl, { name: 'x', standing_instruction: 'i'.repeat(4001) }, 400],
      ['POST', notesUrl, { name: 'x', content: 'a\u0000b' }, 400],
      ['PUT', note, { base_version: 0 }, 400],
      ['PUT', note, { base_version: 1.5 }, 400],
      ['PUT', note, { base_version: '2' }, 400],
      ['PUT', note, { base_version: 1e12 }, 400],
      ['PUT', note, { name: '  ' }, 400],
      ['PUT', note, { version: 3 }, 400],
      ['GET', `${note}/versions/0`, undefined, 400],
      ['GET', `${note}/versions/abc`, undefined, 400],
      ['GET', `${note}/versions/99999999999`, undefined, 400],
      ['GET', `${note}/diff`, undefined, 400],
      ['GET', `${note}/diff?from=1`, undefined, 400],
      ['GET', `${note}/diff?from=x&to=2`, undefined, 400],
      ['GET', `${note}/diff?from=1&to=99999999999`, undefined, 400],
      ['GET', `${note}/diff?from=1&to=9`, undefined, 404],
    ];
    for (const [method, url, body, status] of cases) {
      const res = await call(method, url, body);
      assert.equal(res.statusCode, status, `${method} ${url} ${JSON.stringify(body)?.slice(0, 80)}: ${res.body}`);
    }
  });

  test('content over the limit is refused with what to do', async () => {
    const res = await call('POST', notesUrl, { name: 'Huge', content: 'c'.repeat(2_000_001) });
    assert.ok([400, 413].includes(res.statusCode), res.body);
    assert.notEqual(res.statusCode, 500);
  });

  test('delete a note, then the project; the documents stay', async () => {
    const doomed = await ok<Note>(await call('POST', notesUrl, { name: 'Doomed' }));
    assert.deepEqual(await ok(await call('DELETE', `${notesUrl}/${doomed.note_id}`)), { deleted: true });
    refused(await call('GET', `${notesUrl}/${doomed.note_id}`), 404);
    refused(await call('DELETE', `${notesUrl}/${doomed.note_id}`), 404);

    const documentId = await uploadText('keep.txt', 'keep me');
    await ok(await call('POST', `${org()}/projects/${trip.project_id}/documents`, { document_id: documentId }));
    assert.deepEqual(await ok(await call('DELETE', `${org()}/projects/${trip.project_id}`)), { deleted: true });
    refused(await call('GET', `${org()}/projects/${trip.project_id}`), 404);
    refused(await call('GET', `${notesUrl}/${shopping.note_id}`), 404);
    await ok(await call('GET', `${org()}/documents/${documentId}`));
  });
});
