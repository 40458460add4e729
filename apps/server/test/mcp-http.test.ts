import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiToken, revokeApiToken } from '@docagent/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { bearer, json, type Member, seedMember, signIn, startTestApp, type TestApp, uploadText } from './helpers.ts';

let t: TestApp;
let url: URL;
let alice: Member;
let bob: Member;
let aliceDoc: string;
let bobDoc: string;
const clients: Client[] = [];

type AuditedCall = { name: string; decision: string; reason: string; rule_id?: string; success: boolean; arguments: unknown };
type Run = { id: string; model: string; status: string; subject: { kind: string; id: string }; tool_calls: AuditedCall[] };

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'docagent-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: bearer(token) } }));
  clients.push(client);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  ((result as CallToolResult).content[0] as { text: string }).text;

const api = (method: 'GET' | 'POST', path: string, payload?: object, token = alice.token) =>
  t.app.inject({ method, url: `/v0/orgs/${alice.org.id}${path}`, headers: bearer(token), ...(payload ? { payload } : {}) });

async function latestRun(): Promise<Run> {
  const { runs } = json<{ runs: Run[] }>(await api('GET', '/agent/runs?limit=1'));
  assert.ok(runs[0], 'a run record');
  return runs[0];
}

before(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  assert.ok(address && typeof address === 'object');
  url = new URL(`http://127.0.0.1:${address.port}/mcp`);
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  aliceDoc = await uploadText(t, alice, 'memo.txt', 'A memo about the quarterly numbers.');
  bobDoc = await uploadText(t, bob, 'secret.txt', "Bob's organization's secret.");
});
after(async () => {
  for (const client of clients) await client.close();
  await t.close();
});

describe('MCP over streamable HTTP (the SDK client)', () => {
  test('lists every pack tool and upload_document, with annotations from their access', async () => {
    const client = await connect(alice.token);
    assert.equal(client.getServerVersion()?.name, 'docagent');
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ['get_ocr_text', 'list_documents', 'create_schema', 'create_note', 'execute_sql', 'upload_document']) {
      assert.ok(byName.has(name), `${name} is listed`);
    }
    assert.deepEqual(byName.get('get_ocr_text')?.annotations, { title: 'Get ocr text', readOnlyHint: true });
    const remove = byName.get('delete_document')?.annotations;
    assert.equal(remove?.readOnlyHint, false);
    assert.equal(remove?.destructiveHint, true);
    assert.equal(remove?.idempotentHint, true);
    const create = byName.get('create_schema')?.annotations;
    assert.equal(create?.destructiveHint, false);
    assert.equal(create?.idempotentHint, false);
    // A notes tool takes its project as an argument here: no conversation gives it one.
    const createNote = byName.get('create_note')?.inputSchema;
    assert.ok(createNote?.properties && 'project_id' in createNote.properties);
    assert.equal(byName.get('upload_document')?.inputSchema.type, 'object');
  });

  test('a read runs at once and is audited as a run of the MCP client', async () => {
    const client = await connect(alice.token);
    const result = await client.callTool({ name: 'list_documents', arguments: { limit: 5 } });
    assert.equal(result.isError, undefined);
    const listed = (result.structuredContent as { documents: Array<{ id: string }> }).documents.map((d) => d.id);
    assert.deepEqual(listed, [aliceDoc], "only the token's organization's documents");
    const run = await latestRun();
    assert.equal(run.model, 'mcp');
    assert.equal(run.status, 'completed');
    assert.equal(run.tool_calls[0]?.name, 'list_documents');
    assert.equal(run.tool_calls[0]?.decision, 'allowed');
  });

  test('invalid arguments are a protocol error naming the field', async () => {
    const client = await connect(alice.token);
    await assert.rejects(
      client.callTool({ name: 'list_documents', arguments: { limit: 'many' } }),
      (error: unknown) => error instanceof McpError && error.code === -32602 && /limit/.test(error.message),
    );
    await assert.rejects(
      client.callTool({ name: 'no_such_tool', arguments: {} }),
      (error: unknown) => error instanceof McpError && /no_such_tool/.test(error.message),
    );
  });

  test('a write no rule allows is refused with the rule to add; once the rule is there it runs, and the run names it', async () => {
    const client = await connect(alice.token);
    const args = {
      name: 'Invoice',
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'invoice',
          schema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'], additionalProperties: false },
          strict: true,
        },
      },
    };
    const refused = await client.callTool({ name: 'create_schema', arguments: args });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /no one here to approve it/);
    assert.match(textOf(refused), /\{"tool": "create_schema", "effect": "allow"\}/);
    assert.match(textOf(refused), new RegExp(`/v0/orgs/${alice.org.id}/permission-rules`));
    const denied = await latestRun();
    assert.equal(denied.status, 'denied');
    assert.equal(denied.tool_calls[0]?.decision, 'denied');

    // An admin's rule that allows everything does not reach a run with no person watching.
    const everything = json<{ rule_id: string; allows_everything: boolean }>(
      await api('POST', '/permission-rules', { tool: '*', effect: 'allow', scope: 'organization' }),
    );
    assert.equal(everything.allows_everything, true);
    const stillRefused = await client.callTool({ name: 'create_schema', arguments: args });
    assert.equal(stillRefused.isError, true);
    assert.match(textOf(stillRefused), /a rule allowing everything does not count here/);
    await t.app.inject({
      method: 'DELETE',
      url: `/v0/orgs/${alice.org.id}/permission-rules/${everything.rule_id}`,
      headers: bearer(alice.token),
    });

    const rule = json<{ rule_id: string }>(
      await api('POST', '/permission-rules', { tool: 'create_schema', effect: 'allow', scope: 'user' }),
    );
    const created = await client.callTool({ name: 'create_schema', arguments: args });
    assert.equal(created.isError, undefined, textOf(created));
    assert.match(textOf(created), /schema_revid|schema_id/);
    const run = await latestRun();
    assert.equal(run.tool_calls[0]?.decision, 'allowed');
    assert.equal(run.tool_calls[0]?.rule_id, rule.rule_id);
  });

  test('a deny rule refuses even a read', async () => {
    await api('POST', '/permission-rules', { tool: 'get_ocr_text', effect: 'deny', scope: 'organization', note: 'no text out' });
    const client = await connect(alice.token);
    const refused = await client.callTool({ name: 'get_ocr_text', arguments: { document_id: aliceDoc } });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /Refused by the organization's rule/);
  });

  test("another organization's document is not found; a subject argument picks a project for the notes tools", async () => {
    const client = await connect(alice.token);
    const foreign = await client.callTool({ name: 'get_document', arguments: { document_id: bobDoc } });
    assert.equal(foreign.isError, true);
    assert.match(textOf(foreign), /not found/i);
    assert.doesNotMatch(textOf(foreign), /secret/);

    const project = { id: json<{ project_id: string }>(await api('POST', '/projects', { name: 'Research' })).project_id };
    await api('POST', '/permission-rules', { tool: 'create_note', effect: 'allow', pattern: { project_id: project.id } });
    const note = await client.callTool({
      name: 'create_note',
      arguments: { project_id: project.id, name: 'Findings', content: '# Findings\n' },
    });
    assert.equal(note.isError, undefined, textOf(note));
    const other = await client.callTool({ name: 'list_notes', arguments: {} });
    assert.equal(other.isError, true);
    assert.match(textOf(other), /give project_id/);
  });

  test('upload_document under an allow rule stores the file as a document of the organization', async () => {
    await api('POST', '/permission-rules', { tool: 'upload_document', effect: 'allow' });
    const client = await connect(alice.token);
    const uploaded = await client.callTool({
      name: 'upload_document',
      arguments: { document_name: 'note.txt', content_base64: Buffer.from('Sent over MCP.').toString('base64') },
    });
    assert.equal(uploaded.isError, undefined, textOf(uploaded));
    const { id } = uploaded.structuredContent as { id: string };
    const got = await client.callTool({ name: 'get_document', arguments: { document_id: id } });
    assert.equal((got.structuredContent as { document_name: string }).document_name, 'note.txt');
    await assert.rejects(
      client.callTool({ name: 'upload_document', arguments: { document_name: 'x.txt', content_base64: 'not base64!' } }),
      (error: unknown) => error instanceof McpError && /content_base64/.test(error.message),
    );
  });

  test('a revoked token, a session token and no token are refused before any tool is reached', async () => {
    const made = await createApiToken(t.database.db, { orgId: alice.org.id, name: 'mcp', createdBy: alice.user.id });
    await revokeApiToken(t.database.db, {
      tokenId: made.id,
      orgId: alice.org.id,
      actor: { userId: alice.user.id, role: 'admin' },
    });
    await assert.rejects(connect(made.token), /Invalid credentials/);
    const none = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(none.status, 401);
    assert.match(((await none.json()) as { detail: string }).detail, /Bearer/);
    const session = (await signIn(t.app, 'alice@example.test')).cookie.split('=')[1] ?? '';
    await assert.rejects(connect(session), /not a sign-in session/);
    const stream = await fetch(url, { headers: bearer(alice.token) });
    assert.equal(stream.status, 405);
  });
});
