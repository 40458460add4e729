import fastifyWebsocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { OrgParamsSchema } from '../routes/schemas.ts';
import { AgentSocket } from './agent-socket.ts';
import { readClientMessage } from './client-messages.ts';
import { startHeartbeat } from './heartbeat.ts';
import { errorMessage } from './server-messages.ts';
import { admitSocket, CLOSE_UNAUTHENTICATED, chooseProtocol, type SocketAdmission } from './socket-auth.ts';
import { socketSender } from './socket-sender.ts';

export interface SocketOptions {
  /** How often every socket is pinged; one that missed the previous ping is ended. */
  heartbeatMs?: number;
  /** What may wait unsent for one client before it is disconnected as too slow. */
  maxBufferedBytes?: number;
  /** The largest message a client may send (ws closes the socket with 1009 past it). */
  maxMessageBytes?: number;
}

const DEFAULTS: Required<SocketOptions> = {
  heartbeatMs: 30_000,
  maxBufferedBytes: 8 * 1024 * 1024,
  maxMessageBytes: 1024 * 1024,
};

/**
 * The agent's WebSocket, `GET /v0/orgs/{org}/agent/ws` (DESIGN.md "Reason–Act–Observe and the
 * WebSocket transport"): the transport only; what a message does is AgentSocket's, and what it
 * may say is client-messages'. This registers @fastify/websocket for the whole app.
 */
export async function agentSocketRoutes(app: ZodApp, deps: RouteDeps, options: SocketOptions = {}): Promise<void> {
  const settings = { ...DEFAULTS, ...options };
  const heartbeat = startHeartbeat(settings.heartbeatMs);
  app.addHook('onClose', async () => heartbeat.stop());
  await app.register(fastifyWebsocket, {
    options: { maxPayload: settings.maxMessageBytes, handleProtocols: chooseProtocol },
    errorHandler: (error, socket, request) => {
      // A client's fault, mostly: a message past the limit, a broken frame, a reset connection.
      request.log.warn({ err: error }, 'agent socket error');
      socket.terminate();
    },
  });
  // An upgrade refused by a hook that runs before @fastify/websocket's own (a malformed id, say)
  // gets its HTTP answer on a socket Node no longer manages: without this it would stay open,
  // half-closed, for good (and keep the server from closing).
  app.addHook('onResponse', async (request) => {
    if (request.headers.upgrade !== undefined) request.raw.socket?.destroy();
  });

  // Decided before the upgrade, so no message can arrive before it; told after it, as a close code.
  const admissions = new WeakMap<FastifyRequest, SocketAdmission>();
  app.get(
    '/v0/orgs/:organization_id/agent/ws',
    {
      websocket: true,
      config: { socket: true },
      schema: { params: OrgParamsSchema },
      preHandler: async (request) => {
        admissions.set(request, await admitSocket(deps.db, request, deps.config.publicUrl));
      },
    },
    (socket, request) => {
      const admission = admissions.get(request);
      if (!admission?.ok) {
        socket.close(admission?.code ?? CLOSE_UNAUTHENTICATED, admission?.reason ?? 'Not signed in.');
        return;
      }
      const out = socketSender(socket, settings.maxBufferedBytes);
      const session = new AgentSocket(deps.agent, admission.access, out, request.log);
      heartbeat.add(socket);
      socket.on('message', (data, isBinary) => {
        const read = readClientMessage(data, isBinary);
        if (read.ok) session.handle(read.message);
        else out.send(errorMessage(read.error, read.turnId));
      });
      socket.on('close', () => session.closed());
    },
  );
}
