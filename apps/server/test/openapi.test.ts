import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

test('GET /v0/openapi.json is a valid OpenAPI document describing the routes', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/v0/openapi.json' });
  assert.equal(res.statusCode, 200);
  const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
  assert.match(doc.openapi, /^3\.1\./);
  // validate() throws with the offending path when the document breaks the spec.
  await SwaggerParser.validate(structuredClone(doc) as never);
  for (const path of ['/health', '/v0/auth/login', '/v0/account/token/organization', '/v0/orgs/{organization_id}/tokens']) {
    assert.ok(doc.paths[path], `${path} is documented`);
  }
  const login = doc.paths['/v0/auth/login']?.post as { requestBody?: unknown } | undefined;
  assert.ok(login?.requestBody, 'request bodies come from the Zod schemas');
  assert.ok(!doc.paths['/v0/openapi.json'], 'the document does not list itself');
});
