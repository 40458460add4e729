import type { AddressInfo, Server } from 'node:net';

/** A fake server listening: its base URL, and how to close it (open connections included). */
export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** Listens on `port` (0: any free one) at `host`; an IPv6 host is bracketed in the URL. */
export function listenOn(server: Server, port: number, host: string): Promise<Listening> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
  });
}
