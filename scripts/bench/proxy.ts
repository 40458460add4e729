import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * The load balancer of the two-process run: each request goes to the next backend in turn,
 * streamed both ways, and the response says which one served it (`x-bench-backend`: its index).
 */
export function startRoundRobinProxy(backends: string[]): Promise<RoundRobinProxy> {
  const agent = new Agent({ keepAlive: true });
  let next = 0;
  const server = createServer((req, res) => {
    const index = next;
    next = (next + 1) % backends.length;
    const target = new URL(req.url ?? '/', backends[index]);
    const upstream = request(target, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-bench-backend': String(index) });
      res.socket?.setNoDelay(true);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // A client that leaves mid-stream closes the backend's response too, as a real balancer does.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
            agent.destroy();
          }),
      });
    });
  });
}
