import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** Default of HTTP_REQUEST_TIMEOUT_MS: a request's headers and body arrive within it, else 408. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

const CONNECT_REFUSAL = JSON.stringify({ detail: 'CONNECT is not supported: this is not a proxy.', code: 'method_not_allowed' });

/**
 * A CONNECT request (a proxy tunnel) gets an answer, 405 with Allow, then the connection closes: without
 * a `connect` listener Node.js drops the socket with no answer at all.
 */
function refuseConnect(_req: unknown, socket: Duplex): void {
  socket.end(
    'HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(CONNECT_REFUSAL)}\r\nConnection: close\r\n\r\n${CONNECT_REFUSAL}`,
  );
}

/**
 * Listens on host:port (0 = any free port) and closes gracefully: in-flight requests finish, idle
 * sockets drop. A request's headers and body must arrive within `requestTimeoutMs`
 * (HTTP_REQUEST_TIMEOUT_MS, default 60 s; Node.js answers 408 and closes), so a body shorter than its
 * Content-Length holds a connection no longer than that; a CONNECT request is answered 405.
 */
export async function listen(handler: RequestListener, host: string, port: number, opts: { requestTimeoutMs?: number } = {}): Promise<RunningServer> {
  const requestTimeout = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const server = createServer(
    { requestTimeout, headersTimeout: Math.min(60_000, requestTimeout), connectionsCheckingInterval: Math.min(30_000, Math.max(250, requestTimeout / 4)) },
    handler,
  );
  server.keepAliveTimeout = 65_000;
  server.on('connect', refuseConnect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  let closing: Promise<void> | undefined;
  return {
    server,
    port: actual,
    url: `http://${shownHost}:${actual}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // anything still open after the grace period is cut
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      });
      return closing;
    },
  };
}

/** Runs `stop` once on SIGINT/SIGTERM, then exits. */
export function onShutdown(stop: () => Promise<void>, log: (msg: string, err?: unknown) => void): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received, stopping`);
    stop()
      .then(() => process.exit(0))
      .catch((err) => {
        log('error while stopping', err);
        process.exit(1);
      });
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/** Free TCP ports on 127.0.0.1, all held at once so that none is handed out twice (tests, benchmarks). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<NetServer>((resolve) => {
          const server = createNetServer().listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}
