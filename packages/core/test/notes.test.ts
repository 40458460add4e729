import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createNote,
  createOrganization,
  createProject,
  createUser,
  type Database,
  type DomainEvent,
  DuplicateNoteName,
  deleteNote,
  diffNoteVersions,
  EventBus,
  findNoteByName,
  getNote,
  getNoteVersion,
  isDomainError,
  listNotes,
  listNoteVersions,
  NOTE_LIMITS,
  type ProjectServices,
  StaleNoteVersion,
  unifiedDiff,
  updateNote,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

let database: Database;
let services: ProjectServices;
let access: { orgId: string; role: 'admin'; userId: string };
let other: { orgId: string; role: 'admin'; userId: null };
let projectId: string;
let otherProjectId: string;
const events: DomainEvent[] = [];

before(async () => {
  database = await openTestDatabase();
  services = { db: database.db, events: new EventBus() };
  services.events.subscribe('*', (e) => void events.push(e));
  const org = await createOrganization(database.db, { name: 'notes org' });
  const user = await createUser(database.db, { email: 'notes@example.test', password: 'a long enough password' });
  access = { orgId: org.id, role: 'admin', userId: user.id };
  other = { orgId: (await createOrganization(database.db, { name: 'other org' })).id, role: 'admin', userId: null };
  projectId = (await createProject(services, access, { name: 'Home' })).id;
  otherProjectId = (await createProject(services, access, { name: 'Work' })).id;
});
after(async () => {
  await database.close();
});

const settle = () => new Promise((resolve) => setImmediate(resolve));

const domainKind = (kind: string, pattern?: RegExp) => (error: unknown) => {
  assert.ok(isDomainError(error), String(error));
  assert.equal(error.kind, kind, error.message);
  if (pattern) assert.match(error.message, pattern);
  return true;
};

describe('notes', () => {
  test('are created at version 1 with their first version, and announced', async () => {
    events.length = 0;
    const note = await createNote(services, access, projectId, {
      name: ' Shopping ',
      content: '- milk\n',
      standingInstruction: 'A shopping list grouped by aisle',
      source: 'person',
      summary: 'Started the list',
    });
    assert.equal(note.name, 'Shopping');
    assert.equal(note.version, 1);
    assert.equal(note.size, 7);
    assert.equal(note.orgId, access.orgId);
    assert.equal(note.projectId, projectId);
    assert.equal(note.createdBy, 'notes@example.test');
    assert.equal(note.updatedBy, 'notes@example.test');
    assert.equal(note.standingInstruction, 'A shopping list grouped by aisle');
    const versions = await listNoteVersions(database.db, access.orgId, projectId, note.id);
    assert.deepEqual(
      versions.map((v) => [v.version, v.size, v.source, v.summary]),
      [[1, 7, 'person', 'Started the list']],
    );
    await settle();
    assert.deepEqual(
      events.map((e) => e.type === 'note.created' && [e.type, e.noteId, e.projectId, e.version, e.actor, e.source]),
      [['note.created', note.id, projectId, 1, access.userId, 'person']],
    );
  });

  test('a name used in the project is a DuplicateNoteName naming the note and offering to update it', async () => {
    const existing = await findNoteByName(database.db, access.orgId, projectId, '  SHOPPING ');
    assert.ok(existing);
    await assert.rejects(
      createNote(services, access, projectId, { name: 'shopping', content: '', source: 'agent' }),
      (error: unknown) => {
        assert.ok(error instanceof DuplicateNoteName);
        assert.equal(error.kind, 'conflict');
        assert.equal(error.existing.id, existing.id);
        assert.match(
          error.message,
          new RegExp(
            `A note named "Shopping" already exists in this project \\(note_id ${existing.id}\\)\\. Update that note instead`,
          ),
        );
        return true;
      },
    );
    // The same name in another project is fine.
    const elsewhere = await createNote(services, access, otherProjectId, { name: 'Shopping', content: '', source: 'agent' });
    assert.equal(elsewhere.version, 1);
    assert.equal(await findNoteByName(database.db, access.orgId, projectId, 'nothing like it'), null);
  });

  test('new content makes a new version; name and instruction changes do not', async () => {
    const note = await createNote(services, access, projectId, { name: 'Versions', content: 'a\nb\nc\n', source: 'person' });
    events.length = 0;
    const v2 = await updateNote(services, access, projectId, note.id, {
      content: 'a\nB\nc\nd\n',
      source: 'agent',
      summary: 'Capitalised b, added d',
      baseVersion: 1,
    });
    assert.equal(v2.version, 2);
    assert.equal(v2.content, 'a\nB\nc\nd\n');
    const renamed = await updateNote(services, access, projectId, note.id, {
      name: 'Renamed',
      standingInstruction: 'Keep it short',
      source: 'person',
    });
    assert.equal(renamed.version, 2);
    assert.equal(renamed.name, 'Renamed');
    assert.equal(renamed.standingInstruction, 'Keep it short');
    const unchanged = await updateNote(services, access, projectId, note.id, { content: 'a\nB\nc\nd\n', source: 'person' });
    assert.equal(unchanged.version, 2);
    assert.equal(unchanged.updatedAt.getTime(), renamed.updatedAt.getTime());
    await settle();
    assert.deepEqual(
      events.map((e) => e.type === 'note.updated' && [e.type, e.version, e.source]),
      [
        ['note.updated', 2, 'agent'],
        ['note.updated', 2, 'person'],
      ],
    );

    const versions = await listNoteVersions(database.db, access.orgId, projectId, note.id);
    assert.deepEqual(
      versions.map((v) => [v.version, v.source, v.summary]),
      [
        [2, 'agent', 'Capitalised b, added d'],
        [1, 'person', ''],
      ],
    );
    const first = await getNoteVersion(database.db, access.orgId, projectId, note.id, 1);
    assert.equal(first.content, 'a\nb\nc\n');
    await assert.rejects(
      getNoteVersion(database.db, access.orgId, projectId, note.id, 9),
      domainKind('not_found', new RegExp(`Version 9 of note ${note.id}`)),
    );

    const diff = await diffNoteVersions(database.db, access.orgId, projectId, note.id, 1, 2);
    assert.equal(diff.additions, 2);
    assert.equal(diff.deletions, 1);
    assert.equal(
      diff.diff,
      ['--- Renamed (version 1)', '+++ Renamed (version 2)', '@@ -1,3 +1,4 @@', ' a', '-b', '+B', ' c', '+d', ''].join('\n'),
    );
    const back = await diffNoteVersions(database.db, access.orgId, projectId, note.id, 2, 1);
    assert.deepEqual([back.additions, back.deletions], [1, 2]);
    const none = await diffNoteVersions(database.db, access.orgId, projectId, note.id, 2, 2);
    assert.deepEqual(none, { diff: '', additions: 0, deletions: 0 });
    await assert.rejects(diffNoteVersions(database.db, access.orgId, projectId, note.id, 0, 2), domainKind('invalid_input'));
  });

  test('renaming into a name of the project is a DuplicateNoteName', async () => {
    const note = await createNote(services, access, projectId, { name: 'Unique', content: '', source: 'person' });
    await assert.rejects(
      updateNote(services, access, projectId, note.id, { name: 'SHOPPING', source: 'person' }),
      (error: unknown) => error instanceof DuplicateNoteName && error.existing.name === 'Shopping',
    );
    const recased = await updateNote(services, access, projectId, note.id, { name: 'UNIQUE', source: 'person' });
    assert.equal(recased.name, 'UNIQUE');
  });

  test('a stale base version writes nothing and carries the note as it is', async () => {
    const note = await createNote(services, access, projectId, { name: 'Stale', content: 'one\n', source: 'person' });
    await updateNote(services, access, projectId, note.id, { content: 'two\n', source: 'person', baseVersion: 1 });
    await assert.rejects(
      updateNote(services, access, projectId, note.id, { content: 'three\n', source: 'agent', baseVersion: 1 }),
      (error: unknown) => {
        assert.ok(error instanceof StaleNoteVersion);
        assert.equal(error.kind, 'conflict');
        assert.equal(error.current.version, 2);
        assert.equal(error.current.content, 'two\n');
        assert.match(error.message, /The note "Stale" changed since version 1 \(it is at version 2 now\); nothing was written\./);
        return true;
      },
    );
    // A rename with a stale base is refused as well.
    await assert.rejects(
      updateNote(services, access, projectId, note.id, { name: 'Fresh', source: 'person', baseVersion: 1 }),
      StaleNoteVersion,
    );
    const now = await getNote(database.db, access.orgId, projectId, note.id);
    assert.equal(now.content, 'two\n');
    assert.equal(now.name, 'Stale');
    assert.equal((await listNoteVersions(database.db, access.orgId, projectId, note.id)).length, 2);
  });

  test('two writers on the same base version: exactly one wins, the other gets StaleNoteVersion', async () => {
    for (let round = 0; round < 5; round++) {
      const note = await createNote(services, access, projectId, { name: `Race ${round}`, content: 'base\n', source: 'person' });
      const results = await Promise.allSettled(
        ['left\n', 'right\n', 'middle\n'].map((content) =>
          updateNote(services, access, projectId, note.id, { content, source: 'agent', baseVersion: 1 }),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      assert.equal(won.length, 1);
      assert.equal(lost.length, 2);
      for (const r of lost) assert.ok(r.reason instanceof StaleNoteVersion, String(r.reason));
      const now = await getNote(database.db, access.orgId, projectId, note.id);
      assert.equal(now.version, 2);
      assert.equal(now.content, won[0]?.status === 'fulfilled' ? won[0].value.content : undefined);
      const versions = await listNoteVersions(database.db, access.orgId, projectId, note.id);
      assert.deepEqual(
        versions.map((v) => v.version),
        [2, 1],
      );
    }
  });

  test('concurrent writers without a base version each make their own version', async () => {
    const note = await createNote(services, access, projectId, { name: 'Many writers', content: '', source: 'person' });
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((content) => updateNote(services, access, projectId, note.id, { content, source: 'agent' })),
    );
    const versions = await listNoteVersions(database.db, access.orgId, projectId, note.id);
    assert.deepEqual(
      versions.map((v) => v.version),
      [5, 4, 3, 2, 1],
    );
  });

  test('limits: names, instructions and content, with what to do', async () => {
    const create = (input: { name?: string; content?: string; standingInstruction?: string }) =>
      createNote(services, access, projectId, { name: 'Limits', content: '', source: 'person', ...input });
    await assert.rejects(create({ name: '  ' }), domainKind('invalid_input', /1 to 200 characters/));
    await assert.rejects(create({ name: 'n'.repeat(NOTE_LIMITS.nameChars + 1) }), domainKind('invalid_input'));
    await assert.rejects(
      create({ standingInstruction: 'i'.repeat(NOTE_LIMITS.instructionChars + 1) }),
      domainKind('invalid_input', /at most 4000 characters.*Shorten it/),
    );
    await assert.rejects(
      create({ content: 'c'.repeat(NOTE_LIMITS.contentChars + 1) }),
      domainKind('too_large', /at most 2000000 characters.*Split it/),
    );
    await assert.rejects(create({ content: 'nul \u0000 here' }), domainKind('invalid_input', /NUL/));
    const note = await create({ content: 'c'.repeat(NOTE_LIMITS.contentChars) });
    assert.equal(note.size, NOTE_LIMITS.contentChars);
    await assert.rejects(
      updateNote(services, access, projectId, note.id, { content: 'c'.repeat(NOTE_LIMITS.contentChars + 1), source: 'agent' }),
      domainKind('too_large'),
    );
    await assert.rejects(
      updateNote(services, access, projectId, note.id, { content: 'x', source: 'agent', baseVersion: 0 }),
      domainKind('invalid_input', /base_version/),
    );
  });

  test('list by name, without other projects’ notes', async () => {
    const listed = await listNotes(database.db, access.orgId, projectId);
    const names = listed.map((n) => n.name);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    assert.ok(listed.every((n) => n.projectId === projectId));
    assert.ok(!('content' in (listed[0] ?? {})));
    const work = await listNotes(database.db, access.orgId, otherProjectId);
    assert.deepEqual(
      work.map((n) => n.name),
      ['Shopping'],
    );
  });

  test('another organization or project: not found', async () => {
    const note = await createNote(services, access, projectId, { name: 'Secret', content: 's', source: 'person' });
    const missing = domainKind('not_found', new RegExp(`Note ${note.id} was not found`));
    await assert.rejects(getNote(database.db, other.orgId, projectId, note.id), missing);
    await assert.rejects(getNote(database.db, access.orgId, otherProjectId, note.id), missing);
    await assert.rejects(listNotes(database.db, other.orgId, projectId), domainKind('not_found', /Project/));
    await assert.rejects(
      createNote(services, other, projectId, { name: 'Mine', content: '', source: 'person' }),
      domainKind('not_found', /Project/),
    );
    await assert.rejects(
      updateNote(services, other, projectId, note.id, { content: 'x', source: 'person' }),
      domainKind('not_found'),
    );
    await assert.rejects(
      updateNote(services, access, otherProjectId, note.id, { content: 'x', source: 'person' }),
      domainKind('not_found'),
    );
    await assert.rejects(deleteNote(services, other, projectId, note.id), domainKind('not_found'));
    await assert.rejects(listNoteVersions(database.db, other.orgId, projectId, note.id), missing);
    await assert.rejects(getNoteVersion(database.db, other.orgId, projectId, note.id, 1), missing);
    await assert.rejects(diffNoteVersions(database.db, other.orgId, projectId, note.id, 1, 1), missing);
    assert.equal(await findNoteByName(database.db, other.orgId, projectId, 'Secret'), null);
    assert.equal((await getNote(database.db, access.orgId, projectId, note.id)).content, 's');
  });

  test('delete removes the note and its versions, and is announced', async () => {
    const note = await createNote(services, access, projectId, { name: 'Gone', content: 'x', source: 'person' });
    await updateNote(services, access, projectId, note.id, { content: 'y', source: 'person' });
    events.length = 0;
    await deleteNote(services, access, projectId, note.id);
    await assert.rejects(getNote(database.db, access.orgId, projectId, note.id), domainKind('not_found'));
    await assert.rejects(listNoteVersions(database.db, access.orgId, projectId, note.id), domainKind('not_found'));
    await assert.rejects(deleteNote(services, access, projectId, note.id), domainKind('not_found'));
    await settle();
    assert.deepEqual(
      events.map((e) => e.type === 'note.deleted' && [e.type, e.noteId, e.version, e.actor]),
      [['note.deleted', note.id, 2, access.userId]],
    );
    // Its name is free again.
    const again = await createNote(services, access, projectId, { name: 'gone', content: '', source: 'person' });
    assert.equal(again.version, 1);
  });
});

describe('unifiedDiff', () => {
  test('unified diff text with 3 lines of context, and counts', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    const result = unifiedDiff(before, after, { before: 'old', after: 'new' });
    assert.equal(result.additions, 1);
    assert.equal(result.deletions, 1);
    assert.match(
      result.diff,
      /^--- old\n\+\+\+ new\n@@ -7,7 \+7,7 @@\n line 7\n line 8\n line 9\n-line 10\n\+line ten\n line 11\n/,
    );
    assert.deepEqual(unifiedDiff('same', 'same', { before: 'a', after: 'b' }), { diff: '', additions: 0, deletions: 0 });
  });
});
