#!/usr/bin/env node
/** Usage: node packages/fake-llm/src/cli.ts [--port 8790] [--host 127.0.0.1] */
import { parseArgs } from 'node:util';
import { demoHandler } from './demo-handler.ts';
import { startFakeLlm } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8790' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`fake-llm: invalid --port ${values.port}`);
  process.exit(2);
}

const server = await startFakeLlm({ port, host: values.host });
server.setHandler(demoHandler);
console.log(`fake-llm listening on ${server.url} (base URL ${server.baseUrl})`);

const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
