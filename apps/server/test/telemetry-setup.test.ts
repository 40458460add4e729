import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { activeTraceIds, inSpan } from '@docagent/core';
import { trace } from '@opentelemetry/api';
import { loadConfig } from '../src/config.ts';
import { shutdownTelemetry, startTelemetry } from '../src/telemetry.ts';

test('without OTEL_EXPORTER_OTLP_ENDPOINT nothing is registered and spans are no-ops', async () => {
  for (const env of [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: '' }]) {
    const config = loadConfig(env);
    assert.equal(config.telemetry.otlpEndpoint, undefined);
    assert.equal(config.telemetry.serviceName, 'docagent');
    assert.equal(startTelemetry(config), false);
  }
  await inSpan('untraced', {}, async (span) => {
    assert.equal(span.isRecording(), false);
    assert.equal(activeTraceIds(), undefined, 'log lines get no ids');
  });
  assert.equal(trace.getTracer('probe').startSpan('probe').isRecording(), false);
  await shutdownTelemetry();
});

test('with the endpoint, spans go over OTLP/HTTP to it, named by OTEL_SERVICE_NAME, and are flushed at shutdown', async () => {
  const received: Array<{ path: string | undefined; body: string }> = [];
  const collector = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ path: req.url, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  // The exporter reads the standard variables itself, as it would in production.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
  try {
    assert.equal(
      startTelemetry(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'docagent-probe' })),
      true,
    );
    let ids: ReturnType<typeof activeTraceIds>;
    await inSpan('probe-span', {}, async (span) => {
      assert.equal(span.isRecording(), true);
      ids = activeTraceIds();
    });
    assert.match(ids?.trace_id ?? '', /^[0-9a-f]{32}$/);
    await shutdownTelemetry();
    const sent = received.find((r) => r.path === '/v1/traces');
    assert.ok(sent, JSON.stringify(received));
    assert.match(sent.body, /probe-span/);
    assert.match(sent.body, /docagent-probe/);
    assert.ok(sent.body.includes(ids?.trace_id ?? '-'));
    assert.equal(trace.getTracer('probe').startSpan('after').isRecording(), false, 'after shutdown, nothing is traced');
  } finally {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
    collector.close();
  }
});
