import { DomainError, isDomainError, runningServerUrl } from '@docagent/core';
import type { Config } from '../config.ts';
import { loggerOptions } from '../http/logging.ts';
import { MCP_PATH } from '../mcp/mcp-routes.ts';
import { bridgeStdioToHttp } from '../mcp/stdio-bridge.ts';
import { firstStartBanner, startServer } from '../serve.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * `docagent mcp`: MCP over stdio for a client that starts it (Claude Desktop, Cursor). With
 * DOCAGENT_URL it reaches that running server. Without, on the embedded database: through the
 * server that has it open (`npm start`), or else serving it itself on a loopback port of its own.
 * stdout carries the protocol only: logs and notices go to stderr.
 */
export async function runMcp(config: Config): Promise<void> {
  const { token, url } = config.mcp;
  if (!token) {
    throw new DomainError(
      'invalid_input',
      'docagent mcp needs DOCAGENT_TOKEN, an API token of the organization whose tools it serves (Settings → API tokens, or docagent admin create-token).',
    );
  }
  if (url) return bridgeStdioToHttp(endpointOf(url), token, log);
  const running = runningServerUrl(config.database);
  if (running) {
    log(`docagent mcp: the database is open in a docagent server at ${running}; serving MCP through it.`);
    return bridgeStdioToHttp(endpointOf(running), token, log);
  }
  const started = await startServer(
    { ...config, port: 0, host: '127.0.0.1' },
    { ...loggerOptions(config.logLevel), stream: process.stderr },
  ).catch((error: unknown) => {
    // The embedded database held by a running server: say how to reach that server instead.
    if (!isDomainError(error) || error.kind !== 'unavailable') throw error;
    throw new DomainError(
      'unavailable',
      `${error.message} If a docagent server is running on this database, set DOCAGENT_URL to its address instead.`,
    );
  });
  const local = `http://127.0.0.1:${started.port}`;
  if (started.firstStart) log(firstStartBanner(local, started.firstStart));
  try {
    await bridgeStdioToHttp(endpointOf(local), token, log);
  } finally {
    await started.app.close();
  }
}

/** The MCP endpoint of a server address ("http://host:8700" or its /mcp itself). */
function endpointOf(url: string): URL {
  const endpoint = new URL(url);
  if (!endpoint.pathname.endsWith(MCP_PATH)) endpoint.pathname = `${endpoint.pathname.replace(/\/$/, '')}${MCP_PATH}`;
  return endpoint;
}
