import type { DirectCallDeps } from '@docagent/agent';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { authenticateOrgToken } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { createMcpServer } from './mcp-server.ts';

export const MCP_PATH = '/mcp';

/**
 * MCP over streamable HTTP, stateless: each POST carries its messages and is answered as JSON by a
 * server made for it, on the organization of its Bearer token. There is no session to resume, so
 * GET (a server-to-client stream) and DELETE (ending a session) are refused as the spec allows.
 */
export function mcpRoutes(app: ZodApp, { db, config }: RouteDeps, direct: DirectCallDeps): void {
  app.post(
    MCP_PATH,
    {
      // A file sent to upload_document travels as base64 inside the JSON-RPC message: a third larger.
      bodyLimit: Math.ceil((config.upload.maxFileBytes * 4) / 3) + 1024 * 1024,
      schema: { hide: true },
    },
    async (request, reply) => {
      const access = await authenticateOrgToken(db, request);
      const server = createMcpServer(direct, access);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      reply.hijack();
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send({
            jsonrpc: '2.0',
            error: { code: -32000, message: 'This MCP endpoint is stateless: send every message with POST.' },
            id: null,
          }),
    });
  }
}
