import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type FakeLlmServer, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/** A project's CSV, TSV and XLSX documents are tables the agent queries in the project's conversations. */

let t: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;

interface Project {
  project_id: string;
  dataset_id: string | null;
  documents: Array<{ document_id: string }>;
}
interface Dataset {
  dataset_id: string;
  name: string;
  tables: Array<{ table_name: string; status: string; document_id: string | null }>;
}

before(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl, LLM_MAX_RETRIES: '0' });
  alice = await seedMember(t.database, 'tables');
});
beforeEach(() => fake.reset());
after(async () => {
  await t.close();
  await fake.close();
});

const base = () => `/v0/orgs/${alice.org.id}`;
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(alice.token), ...(payload ? { payload } : {}) });

async function upload(name: string, text: string): Promise<string> {
  const res = await call('POST', `${base()}/documents`, { documents: [{ name, content: Buffer.from(text).toString('base64') }] });
  assert.equal(res.statusCode, 200, res.body);
  return json<{ documents: Array<{ document_id: string }> }>(res).documents[0]?.document_id as string;
}

const toolOutputs = (r: RecordedRequest) =>
  (r.body.input as Array<{ type?: string; output?: string }>)
    .filter((i) => i.type === 'function_call_output')
    .map((i) => i.output ?? '');

describe("a project's tables", () => {
  test('linking a CSV makes it a table of the project dataset; the agent queries it by default; unlinking takes it out', async () => {
    const project = json<Project>(await call('POST', `${base()}/projects`, { name: 'Budget trip' }));
    assert.equal(project.dataset_id, null);
    const memo = await upload('memo.txt', 'Not a table.');
    const withMemo = json<Project>(
      await call('POST', `${base()}/projects/${project.project_id}/documents`, { document_id: memo }),
    );
    assert.equal(withMemo.dataset_id, null, 'a text document makes no table');

    const costs = await upload('costs.csv', 'item,eur\nhotel,300\nflight,120\n');
    const linked = await call('POST', `${base()}/projects/${project.project_id}/documents`, { document_id: costs });
    assert.equal(linked.statusCode, 200, linked.body);
    const datasetId = json<Project>(linked).dataset_id;
    assert.ok(datasetId);
    const dataset = json<Dataset>(await call('GET', `${base()}/datasets/${datasetId}`));
    assert.equal(dataset.name, 'Budget trip tables');
    assert.deepEqual(
      dataset.tables.map((x) => [x.table_name, x.status, x.document_id]),
      [['costs', 'ready', costs]],
    );
    // Linking it again changes nothing.
    assert.equal(
      (await call('POST', `${base()}/projects/${project.project_id}/documents`, { document_id: costs })).statusCode,
      200,
    );

    fake.setHandler((r) =>
      toolOutputs(r).length === 0
        ? { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT sum(eur) AS total FROM costs' } }] }
        : { text: `The total is ${toolOutputs(r)[0]?.includes('420') ? '420' : 'unknown'} EUR.` },
    );
    const chat = await call('POST', `${base()}/agent/chat`, {
      subject: { kind: 'project', id: project.project_id },
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'What does the trip cost?' }],
    });
    assert.equal(chat.statusCode, 200, chat.body);
    assert.equal(json<{ text: string }>(chat).text, 'The total is 420 EUR.');
    const system = JSON.stringify(fake.requests[0]?.body.instructions ?? fake.requests[0]?.body.input);
    assert.match(system, /costs, 2 rows/);
    assert.match(system, /notes agent/);

    const unlinked = json<Project>(await call('DELETE', `${base()}/projects/${project.project_id}/documents/${costs}`));
    assert.deepEqual(
      unlinked.documents.map((d) => d.document_id),
      [memo],
    );
    assert.deepEqual(json<Dataset>(await call('GET', `${base()}/datasets/${datasetId}`)).tables, []);

    assert.equal((await call('DELETE', `${base()}/projects/${project.project_id}`)).statusCode, 200);
    assert.equal((await call('GET', `${base()}/datasets/${datasetId}`)).statusCode, 404, 'the project took its dataset');
    assert.equal((await call('GET', `${base()}/documents/${costs}?include_content=false`)).statusCode, 200, 'the document stays');
  });

  test('a project without tables gets no data section, and a query without a dataset says how to get one', async () => {
    const project = json<Project>(await call('POST', `${base()}/projects`, { name: 'Plain' }));
    fake.setHandler((r) =>
      toolOutputs(r).length === 0
        ? { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT 1' } }] }
        : { text: toolOutputs(r)[0] ?? '' },
    );
    const chat = await call('POST', `${base()}/agent/chat`, {
      subject: { kind: 'project', id: project.project_id },
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'Sum it' }],
    });
    assert.equal(chat.statusCode, 200, chat.body);
    assert.match(json<{ text: string }>(chat).text, /This project has no tables yet/);
    assert.doesNotMatch(JSON.stringify(fake.requests[0]?.body.instructions ?? fake.requests[0]?.body.input), /<dataset>/);
  });
});
