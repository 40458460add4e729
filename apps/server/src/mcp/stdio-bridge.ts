import { once } from 'node:events';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * `docagent mcp` over stdio: every message from the client on stdin goes to a docagent server's
 * `/mcp` with the token, and every answer back to stdout. One MCP server, the HTTP one, serves
 * both transports; this is only the pipe. Resolves when stdin ends (the client went away).
 */
export async function bridgeStdioToHttp(endpoint: URL, token: string, log: (line: string) => void): Promise<void> {
  const local = new StdioServerTransport();
  const remote = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  /** The id of the client's `initialize`, whose answer says which protocol version later requests declare. */
  let initializeId: string | number | undefined;
  local.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === 'initialize') initializeId = message.id;
    remote.send(message).catch((error: Error) => {
      log(`docagent mcp: ${error.message}`);
      // A request must be answered: the client then shows why (a revoked token, the server gone).
      if (isJSONRPCRequest(message)) {
        void local.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32000, message: `docagent at ${endpoint.origin} refused or failed: ${error.message}` },
        });
      }
    });
  };
  remote.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCResultResponse(message) && message.id === initializeId) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') remote.setProtocolVersion(version);
    }
    void local.send(message);
  };
  remote.onerror = (error) => log(`docagent mcp: ${error.message}`);
  local.onerror = (error) => log(`docagent mcp: ${error.message}`);
  await remote.start();
  await local.start();
  await Promise.race([once(process.stdin, 'end'), once(process.stdin, 'close')]);
  await local.close();
  await remote.close();
}
