/**
 * A real HTTP server on 127.0.0.1 for tests of `acts.core.http`: routes answer by path, every
 * request is recorded (method, path, headers, body), and `hold` keeps answers back until released.
 *
 * State: the recorded requests, the held answers; `close` ends the server and its connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface Peer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  seen: Seen[];
  route(path: string, handler: Route): void;
  close(): Promise<void>;
}

export async function startPeer(): Promise<Peer> {
  const routes = new Map<string, Route>();
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0];
      seen.push({ method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body });
      const handler = routes.get(path);
      if (handler) handler(req, res, body);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end(`no route ${path}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    seen,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}
