import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkTagsExist, isDomainError, newId, tables } from '@docagent/core';
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

interface Tag {
  id: string;
  name: string;
  color: string;
  description: string;
  created_at: string;
  updated_at: string;
}
interface TagPage {
  tags: Tag[];
  total_count: number;
  skip: number;
}
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const tagsUrl = (orgId = alice.org.id) => `/v0/orgs/${orgId}/tags`;

function call(method: Method, url: string, payload?: Record<string, unknown>, token = alice.token) {
  return t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

async function createTag(payload: Record<string, unknown>): Promise<Tag> {
  const res = await call('POST', tagsUrl(), payload);
  assert.equal(res.statusCode, 200, res.body);
  return json<Tag>(res);
}

async function assertError(res: Awaited<ReturnType<typeof call>>, status: number, code: string, detail: RegExp): Promise<void> {
  assert.equal(res.statusCode, status, res.body);
  const body = json<{ detail: string; code: string }>(res);
  assert.equal(body.code, code);
  assert.match(body.detail, detail);
}

describe('creating and reading tags', () => {
  test('POST returns the tag with exactly DocRouter’s fields; GET returns the same tag', async () => {
    const res = await call('POST', tagsUrl(), { name: '  Invoice ', color: '#1E88E5', description: 'Bills from suppliers' });
    assert.equal(res.statusCode, 200, res.body);
    const tag = json<Tag>(res);
    assert.deepEqual(Object.keys(tag).sort(), ['color', 'created_at', 'description', 'id', 'name', 'updated_at']);
    assert.equal(tag.name, 'Invoice', 'the name is trimmed');
    assert.equal(tag.color, '#1e88e5', 'the color is lower-cased');
    assert.equal(tag.description, 'Bills from suppliers');
    assert.match(tag.id, /^[0-9a-f]{24}$/);
    assert.equal(new Date(tag.created_at).toISOString(), tag.created_at);
    assert.equal(tag.updated_at, tag.created_at);

    const got = await call('GET', `${tagsUrl()}/${tag.id}`);
    assert.equal(got.statusCode, 200, got.body);
    assert.deepEqual(json<Tag>(got), tag);
  });

  test('without a color a tag gets a palette color, the same one for the same name; the description defaults to empty', async () => {
    const first = await createTag({ name: 'receipt' });
    assert.match(first.color, /^#[0-9a-f]{6}$/);
    assert.equal(first.description, '');
    await call('DELETE', `${tagsUrl()}/${first.id}`);
    const again = await createTag({ name: 'receipt' });
    assert.equal(again.color, first.color);
    const short = await createTag({ name: 'short-color', color: '#ABC' });
    assert.equal(short.color, '#abc');
  });

  test('bad names, colors, descriptions and unknown fields are refused with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: '' }, /body\.name: a tag name must not be empty/],
      [{ name: '   ' }, /body\.name: a tag name must not be empty/],
      [{ name: 'x'.repeat(65) }, /body\.name: a tag name has at most 64 characters/],
      [{}, /body\.name:/],
      [{ name: 'ok', color: 'red' }, /body\.color: must be a CSS hex color/],
      [{ name: 'ok', color: '#12345' }, /body\.color: must be a CSS hex color/],
      [{ name: 'ok', color: '#ggg' }, /body\.color: must be a CSS hex color/],
      [{ name: 'ok', description: 'd'.repeat(501) }, /body\.description: a tag description has at most 500 characters/],
      [{ name: 'ok', colour: '#fff' }, /body:.*colour/],
    ];
    for (const [payload, detail] of cases)
      await assertError(await call('POST', tagsUrl(), payload), 400, 'invalid_input', detail);
    const longest = await createTag({ name: 'n'.repeat(64), description: 'd'.repeat(500) });
    assert.equal(longest.name.length, 64);
  });

  test('a second tag with the same name in any case is refused with 409; another org may use the name', async () => {
    await createTag({ name: 'Contract' });
    await assertError(
      await call('POST', tagsUrl(), { name: 'contract' }),
      409,
      'conflict',
      /A tag named "Contract" already exists/,
    );
    await assertError(await call('POST', tagsUrl(), { name: ' CONTRACT ' }), 409, 'conflict', /A tag named "Contract"/);
    const res = await call('POST', tagsUrl(bob.org.id), { name: 'contract' }, bob.token);
    assert.equal(res.statusCode, 200, res.body);
  });

  test('of concurrent creations of one name in different cases, exactly one succeeds', async () => {
    const names = ['race', 'Race', 'rAce', 'raCe', 'racE', 'RAce', 'RACe', 'RACE'];
    const results = await Promise.all(names.map((name) => call('POST', tagsUrl(), { name })));
    const statuses = results.map((r) => r.statusCode);
    assert.deepEqual([statuses.filter((s) => s === 200).length, statuses.filter((s) => s === 409).length], [1, 7]);
  });
});

describe('updating tags', () => {
  test('PUT changes name, color and description and bumps updated_at; a request changing nothing leaves the tag as it was', async () => {
    const tag = await createTag({ name: 'draft', color: '#000' });
    await new Promise((r) => setTimeout(r, 5));
    const res = await call('PUT', `${tagsUrl()}/${tag.id}`, {
      name: ' Draft v2 ',
      color: '#FF8800',
      description: 'work in progress',
    });
    assert.equal(res.statusCode, 200, res.body);
    const updated = json<Tag>(res);
    assert.deepEqual(
      { name: updated.name, color: updated.color, description: updated.description, created_at: updated.created_at },
      { name: 'Draft v2', color: '#ff8800', description: 'work in progress', created_at: tag.created_at },
    );
    assert.ok(updated.updated_at > tag.updated_at, 'updated_at moves forward');

    for (const payload of [{}, { name: 'Draft v2', color: '#ff8800' }]) {
      const same = await call('PUT', `${tagsUrl()}/${tag.id}`, payload);
      assert.equal(same.statusCode, 200, same.body);
      assert.deepEqual(json<Tag>(same), updated);
    }
    const recased = json<Tag>(await call('PUT', `${tagsUrl()}/${tag.id}`, { name: 'DRAFT V2' }));
    assert.equal(recased.name, 'DRAFT V2', 'a tag may change the case of its own name');
  });

  test('PUT refuses a name another tag has, bad fields and unknown fields', async () => {
    const tag = await createTag({ name: 'approved' });
    await createTag({ name: 'Rejected' });
    const url = `${tagsUrl()}/${tag.id}`;
    await assertError(await call('PUT', url, { name: 'rejected' }), 409, 'conflict', /A tag named "Rejected" already exists/);
    await assertError(await call('PUT', url, { name: '' }), 400, 'invalid_input', /body\.name:/);
    await assertError(await call('PUT', url, { color: 'blue' }), 400, 'invalid_input', /body\.color:/);
    await assertError(await call('PUT', url, { tag_name: 'x' }), 400, 'invalid_input', /body:.*tag_name/);
    assert.equal(json<Tag>(await call('GET', url)).name, 'approved');
  });
});

describe('listing tags', () => {
  test('GET lists by name with total_count, skip, limit and a case-insensitive name_search', async () => {
    const org = await seedMember(t.database, 'lister');
    const url = tagsUrl(org.org.id);
    for (const name of ['delta', 'Alpha', 'charlie', 'bravo', 'alphabet 50%']) {
      const res = await call('POST', url, { name }, org.token);
      assert.equal(res.statusCode, 200, res.body);
    }
    const all = json<TagPage>(await call('GET', url, undefined, org.token));
    assert.deepEqual(Object.keys(all).sort(), ['skip', 'tags', 'total_count']);
    assert.deepEqual(
      all.tags.map((tag) => tag.name),
      ['Alpha', 'alphabet 50%', 'bravo', 'charlie', 'delta'],
    );
    assert.deepEqual([all.total_count, all.skip], [5, 0]);

    const page = json<TagPage>(await call('GET', `${url}?skip=1&limit=2`, undefined, org.token));
    assert.deepEqual(
      page.tags.map((tag) => tag.name),
      ['alphabet 50%', 'bravo'],
    );
    assert.deepEqual([page.total_count, page.skip], [5, 1]);

    const found = json<TagPage>(await call('GET', `${url}?name_search=ALPHA`, undefined, org.token));
    assert.deepEqual(
      found.tags.map((tag) => tag.name),
      ['Alpha', 'alphabet 50%'],
    );
    assert.equal(found.total_count, 2);
    const literal = json<TagPage>(await call('GET', `${url}?name_search=${encodeURIComponent('%')}`, undefined, org.token));
    assert.deepEqual(
      literal.tags.map((tag) => tag.name),
      ['alphabet 50%'],
      'wildcards in the search are literal',
    );

    await assertError(await call('GET', `${url}?limit=0`, undefined, org.token), 400, 'invalid_input', /querystring\.limit/);
    await assertError(await call('GET', `${url}?skip=-1`, undefined, org.token), 400, 'invalid_input', /querystring\.skip/);
  });
});

describe('deleting tags', () => {
  test('a tag used by a document is kept, with a 409 naming the document, until the document drops it', async () => {
    const tag = await createTag({ name: 'invoice-2024' });
    const other = await createTag({ name: 'keep' });
    const upload = await call('POST', `/v0/orgs/${alice.org.id}/documents`, {
      documents: [{ name: 'a.txt', content: Buffer.from('Invoice 42\nTotal 10 EUR\n').toString('base64'), tag_ids: [tag.id] }],
    });
    assert.equal(upload.statusCode, 200, upload.body);
    const documentId = json<{ documents: Array<{ document_id: string }> }>(upload).documents[0]!.document_id;

    const url = `${tagsUrl()}/${tag.id}`;
    await assertError(
      await call('DELETE', url),
      409,
      'conflict',
      /^Tag "invoice-2024" is used by document a\.txt; remove it from them first\.$/,
    );
    assert.equal((await call('GET', url)).statusCode, 200, 'the tag is still there');

    const retag = await call('PUT', `/v0/orgs/${alice.org.id}/documents/${documentId}`, { tag_ids: [other.id] });
    assert.equal(retag.statusCode, 200, retag.body);
    const deleted = await call('DELETE', url);
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(json(deleted), { message: 'Tag deleted successfully' });
    await assertError(await call('GET', url), 404, 'not_found', /Tag .* was not found/);
    await assertError(await call('DELETE', url), 404, 'not_found', /was not found/);
  });

  test('the 409 names at most five users, documents and prompts, and counts the rest', async () => {
    const tag = await createTag({ name: 'busy' });
    const documents = ['f.txt', 'e.txt', 'd.txt', 'c.txt'].map((name) => ({
      name,
      content: Buffer.from(`${name}\n`).toString('base64'),
      tag_ids: [tag.id],
    }));
    const upload = await call('POST', `/v0/orgs/${alice.org.id}/documents`, { documents });
    assert.equal(upload.statusCode, 200, upload.body);
    const { db } = t.database;
    for (const name of ['Invoice fields', 'Totals']) {
      const promptId = newId();
      await db.insert(tables.prompts).values({ id: promptId, orgId: alice.org.id, name });
      for (const version of [1, 2]) {
        await db.insert(tables.promptRevisions).values({
          id: newId(),
          promptId,
          version,
          name,
          content: 'Extract the fields.',
          tagIds: [tag.id],
          createdBy: alice.user.id,
        });
      }
    }
    await assertError(
      await call('DELETE', `${tagsUrl()}/${tag.id}`),
      409,
      'conflict',
      /^Tag "busy" is used by documents c\.txt, d\.txt, e\.txt, f\.txt and prompt "Invoice fields" and 1 more; remove it from them first\.$/,
    );
  });
});

describe('organizations', () => {
  test('every route answers 404 for a tag of another organization and leaves it alone', async () => {
    const theirs = json<Tag>(await call('POST', tagsUrl(bob.org.id), { name: 'bob-only' }, bob.token));
    const url = `${tagsUrl()}/${theirs.id}`;
    await assertError(await call('GET', url), 404, 'not_found', /was not found/);
    await assertError(await call('PUT', url, { name: 'stolen' }), 404, 'not_found', /was not found/);
    await assertError(await call('PUT', url, {}), 404, 'not_found', /was not found/);
    await assertError(await call('DELETE', url), 404, 'not_found', /was not found/);
    const listed = json<TagPage>(await call('GET', `${tagsUrl()}?name_search=bob-only`));
    assert.equal(listed.total_count, 0);
    const still = json<Tag>(await call('GET', `${tagsUrl(bob.org.id)}/${theirs.id}`, undefined, bob.token));
    assert.deepEqual(still, theirs);
  });

  test('every route is refused for an organization the caller is not a member of', async () => {
    const theirs = json<Tag>(await call('POST', tagsUrl(bob.org.id), { name: 'bob-private' }, bob.token));
    const url = `${tagsUrl(bob.org.id)}/${theirs.id}`;
    const attempts: Array<[Method, string, Record<string, unknown>?]> = [
      ['POST', tagsUrl(bob.org.id), { name: 'intruder' }],
      ['GET', tagsUrl(bob.org.id)],
      ['GET', url],
      ['PUT', url, { name: 'intruder' }],
      ['DELETE', url],
    ];
    for (const [method, target, payload] of attempts) {
      const res = await call(method, target, payload);
      assert.equal(res.statusCode, 404, `${method} ${target}: ${res.body}`);
    }
    assert.equal(json<Tag>(await call('GET', url, undefined, bob.token)).name, 'bob-private');
  });
});

describe('checkTagsExist', () => {
  test('accepts the org’s own tag ids and rejects unknown ones and other orgs’ ids, naming them', async () => {
    const mine = await createTag({ name: 'mine' });
    const theirs = json<Tag>(await call('POST', tagsUrl(bob.org.id), { name: 'theirs' }, bob.token));
    const { db } = t.database;
    await checkTagsExist(db, alice.org.id, []);
    await checkTagsExist(db, alice.org.id, [mine.id, mine.id]);
    await assert.rejects(checkTagsExist(db, alice.org.id, [mine.id, 'nope', theirs.id]), (error: unknown) => {
      assert.ok(isDomainError(error));
      assert.equal(error.kind, 'invalid_input');
      assert.match(error.message, new RegExp(`^Tag ids "nope", "${theirs.id}" are not tags of this organization`));
      return true;
    });
    await assert.rejects(checkTagsExist(db, alice.org.id, ['nope']), /^DomainError: Tag id "nope" is not a tag/);
  });
});
