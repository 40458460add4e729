import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import {
  addProjectDocument,
  createNote,
  createOrganization,
  createProject,
  createUser,
  type Database,
  DatabaseBlobStore,
  type DomainEvent,
  deleteProject,
  EventBus,
  getNote,
  getProject,
  getProjectRecord,
  isDomainError,
  listProjects,
  newId,
  type ProjectServices,
  removeProjectDocument,
  tables,
  updateProject,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

let database: Database;
let services: ProjectServices;
let access: { orgId: string; role: 'admin'; userId: string };
let other: { orgId: string; role: 'admin'; userId: null };

before(async () => {
  database = await openTestDatabase();
  services = { db: database.db, events: new EventBus() };
  const org = await createOrganization(database.db, { name: 'projects org' });
  const user = await createUser(database.db, { email: 'projects@example.test', password: 'a long enough password' });
  access = { orgId: org.id, role: 'admin', userId: user.id };
  other = { orgId: (await createOrganization(database.db, { name: 'other org' })).id, role: 'admin', userId: null };
});
after(async () => {
  await database.close();
});

async function storedDocument(orgId: string, name: string): Promise<string> {
  const blob = await new DatabaseBlobStore(database.db).put(
    (async function* () {
      yield Buffer.from('hello');
    })(),
    { maxBytes: 1e6 },
  );
  const id = newId();
  await database.db.insert(tables.documents).values({
    id,
    orgId,
    name,
    mimeType: 'text/plain',
    kind: 'text',
    state: 'uploaded',
    blobId: blob.blobId,
    sizeBytes: blob.size,
    uploadedBy: 'test',
  });
  return id;
}

const domainKind = (kind: string, pattern?: RegExp) => (error: unknown) => {
  assert.ok(isDomainError(error), String(error));
  assert.equal(error.kind, kind, error.message);
  if (pattern) assert.match(error.message, pattern);
  return true;
};

describe('projects', () => {
  test('are created with trimmed names, counted contents and their creator', async () => {
    const project = await createProject(services, access, { name: '  Trip to Lisbon ', description: 'A week' });
    assert.equal(project.name, 'Trip to Lisbon');
    assert.equal(project.description, 'A week');
    assert.equal(project.createdBy, 'projects@example.test');
    assert.equal(project.noteCount, 0);
    assert.equal(project.documentCount, 0);
    assert.deepEqual(project.documents, []);
    const record = await getProjectRecord(database.db, access.orgId, project.id);
    assert.equal(record.orgId, access.orgId);
  });

  test('names are unique per organization whatever their case, and the conflict names the project', async () => {
    const first = await createProject(services, access, { name: 'Groceries' });
    await assert.rejects(
      createProject(services, access, { name: 'GROCERIES' }),
      domainKind('conflict', new RegExp(`"Groceries" already exists \\(project_id ${first.id}\\)`)),
    );
    // Another organization may use it.
    const elsewhere = await createProject(services, other, { name: 'groceries' });
    assert.equal(elsewhere.createdBy, 'organization API token');
    // Renaming into a taken name is refused too; renaming to itself with another case is not.
    const second = await createProject(services, access, { name: 'Errands' });
    await assert.rejects(updateProject(services, access, second.id, { name: 'groceries' }), domainKind('conflict'));
    const renamed = await updateProject(services, access, first.id, { name: 'GROCERIES' });
    assert.equal(renamed.name, 'GROCERIES');
  });

  test('concurrent creations with one name: exactly one wins', async () => {
    const results = await Promise.allSettled([
      createProject(services, access, { name: 'Race' }),
      createProject(services, access, { name: 'race' }),
    ]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const failed = results.find((r) => r.status === 'rejected');
    assert.ok(failed && domainKind('conflict')(failed.reason));
  });

  test('names and descriptions are checked', async () => {
    await assert.rejects(createProject(services, access, { name: '   ' }), domainKind('invalid_input', /1 to 200/));
    await assert.rejects(createProject(services, access, { name: 'x'.repeat(201) }), domainKind('invalid_input'));
    await assert.rejects(
      createProject(services, access, { name: 'Long', description: 'd'.repeat(4001) }),
      domainKind('invalid_input', /at most 4000/),
    );
  });

  test('update changes only what is given; nothing to change leaves updatedAt alone', async () => {
    const project = await createProject(services, access, { name: 'Update me', description: 'old' });
    const same = await updateProject(services, access, project.id, { name: 'Update me' });
    assert.equal(same.updatedAt.getTime(), project.updatedAt.getTime());
    const changed = await updateProject(services, access, project.id, { description: 'new' });
    assert.equal(changed.name, 'Update me');
    assert.equal(changed.description, 'new');
    assert.ok(changed.updatedAt.getTime() >= project.updatedAt.getTime());
  });

  test('list: newest first, a page at a time, searched by name', async () => {
    const { db } = database;
    const page = await listProjects(db, access.orgId, { skip: 0, limit: 2 });
    assert.equal(page.projects.length, 2);
    assert.ok(page.total >= 5);
    const all = await listProjects(db, access.orgId, { skip: 0, limit: 100 });
    assert.equal(all.projects.length, all.total);
    for (let i = 1; i < all.projects.length; i++) {
      assert.ok((all.projects[i - 1]?.createdAt.getTime() ?? 0) >= (all.projects[i]?.createdAt.getTime() ?? 0));
    }
    assert.ok(all.projects.every((p) => p.orgId === access.orgId));
    const found = await listProjects(db, access.orgId, { skip: 0, limit: 10, nameSearch: 'lisbon' });
    assert.deepEqual(
      found.projects.map((p) => p.name),
      ['Trip to Lisbon'],
    );
    const wildcard = await listProjects(db, access.orgId, { skip: 0, limit: 10, nameSearch: '%' });
    assert.equal(wildcard.total, 0);
  });

  test('documents are linked and unlinked; another organization’s document is not found', async () => {
    const project = await createProject(services, access, { name: 'With documents' });
    const documentId = await storedDocument(access.orgId, 'receipt.txt');
    const linked = await addProjectDocument(services, access, project.id, documentId);
    assert.equal(linked.documentCount, 1);
    assert.deepEqual(
      linked.documents.map((d) => [d.documentId, d.name, d.mimeType]),
      [[documentId, 'receipt.txt', 'text/plain']],
    );
    const again = await addProjectDocument(services, access, project.id, documentId);
    assert.equal(again.documentCount, 1);

    const foreign = await storedDocument(other.orgId, 'foreign.txt');
    await assert.rejects(addProjectDocument(services, access, project.id, foreign), domainKind('not_found', /Document/));
    await assert.rejects(addProjectDocument(services, access, project.id, 'nope'), domainKind('not_found'));

    const unlinked = await removeProjectDocument(services, access, project.id, documentId);
    assert.equal(unlinked.documentCount, 0);
    await assert.rejects(removeProjectDocument(services, access, project.id, documentId), domainKind('not_found'));
    const [document] = await database.db.select().from(tables.documents).where(eq(tables.documents.id, documentId));
    assert.ok(document, 'the document stays in the organization');
  });

  test('another organization’s project is not found, for reads and writes alike', async () => {
    const project = await createProject(services, access, { name: 'Private' });
    const notFound = domainKind('not_found', new RegExp(`Project ${project.id} was not found`));
    await assert.rejects(getProject(database.db, other.orgId, project.id), notFound);
    await assert.rejects(getProjectRecord(database.db, other.orgId, project.id), notFound);
    await assert.rejects(updateProject(services, other, project.id, { name: 'Mine' }), notFound);
    await assert.rejects(deleteProject(services, other, project.id), notFound);
    const documentId = await storedDocument(other.orgId, 'theirs.txt');
    await assert.rejects(addProjectDocument(services, other, project.id, documentId), notFound);
    assert.equal((await getProject(database.db, access.orgId, project.id)).name, 'Private');
  });

  test('delete takes the notes along, publishes their deletion, and leaves the documents', async () => {
    const project = await createProject(services, access, { name: 'Doomed' });
    const documentId = await storedDocument(access.orgId, 'keep.txt');
    await addProjectDocument(services, access, project.id, documentId);
    const note = await createNote(services, access, project.id, { name: 'N', content: 'x', source: 'person' });
    const counted = await getProject(database.db, access.orgId, project.id);
    assert.deepEqual([counted.noteCount, counted.documentCount], [1, 1]);
    const listed = await listProjects(database.db, access.orgId, { skip: 0, limit: 100 });
    const item = listed.projects.find((p) => p.id === project.id);
    assert.deepEqual([item?.noteCount, item?.documentCount], [1, 1]);
    assert.ok(listed.projects.filter((p) => p.id !== project.id).every((p) => p.noteCount === 0));
    const events: DomainEvent[] = [];
    const unsubscribe = services.events.subscribe('note.deleted', (e) => void events.push(e));
    await deleteProject(services, access, project.id);
    await new Promise((resolve) => setImmediate(resolve));
    unsubscribe();
    await assert.rejects(getProject(database.db, access.orgId, project.id), domainKind('not_found'));
    await assert.rejects(getNote(database.db, access.orgId, project.id, note.id), domainKind('not_found'));
    const versions = await database.db.select().from(tables.noteVersions).where(eq(tables.noteVersions.noteId, note.id));
    assert.equal(versions.length, 0);
    const [document] = await database.db.select().from(tables.documents).where(eq(tables.documents.id, documentId));
    assert.ok(document);
    assert.deepEqual(
      events.map((e) => e.type === 'note.deleted' && [e.noteId, e.projectId]),
      [[note.id, project.id]],
    );
  });
});

describe('the event bus', () => {
  test('runs handlers after the publisher’s tick; a throwing handler reaches onError, not the publisher', async () => {
    const errors: unknown[] = [];
    const bus = new EventBus({ onError: (error) => void errors.push(error) });
    const seen: string[] = [];
    bus.subscribe('note.created', () => {
      throw new Error('boom');
    });
    bus.subscribe('note.created', async () => {
      throw new Error('async boom');
    });
    bus.subscribe('*', (e) => void seen.push(`*:${e.type}`));
    const off = bus.subscribe('note.created', (e) => void seen.push(e.type));
    const event: DomainEvent = {
      type: 'note.created',
      orgId: 'o',
      projectId: 'p',
      noteId: 'n',
      actor: null,
      at: new Date().toISOString(),
    };
    bus.publish(event);
    assert.deepEqual(seen, [], 'nothing ran during publish');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen.sort(), ['*:note.created', 'note.created']);
    assert.deepEqual(errors.map((e) => (e as Error).message).sort(), ['async boom', 'boom']);
    off();
    bus.publish({ ...event, type: 'note.deleted' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen.sort(), ['*:note.created', '*:note.deleted', 'note.created']);
  });
});
