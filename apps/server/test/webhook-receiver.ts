import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How the receiver answers a request: a status (and headers), or 'hang' to never answer. */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A webhook receiver on 127.0.0.1: records every request with its raw body and answers as the
 * test's handler says (200 by default).
 */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  handler: (request: ReceivedRequest) => Answer = () => ({ status: 200 });
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();

  private constructor(server: Server) {
    this.server = server;
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver: WebhookReceiver = new WebhookReceiver(createServer((req, res) => receiver.handle(req, res)));
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  to(path: string): ReceivedRequest[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const request = { path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') };
      this.received.push(request);
      const answer = this.handler(request);
      if (answer === 'hang') {
        this.hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers).end(answer.status >= 400 ? 'receiver says no' : 'ok');
    });
  }
}
