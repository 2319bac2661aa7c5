import { readFileSync } from 'node:fs';
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

/**
 * Free TCP ports on 127.0.0.1 for processes started later (tests, benchmarks), all held at once so that
 * none is handed out twice. They are taken below the kernel's ephemeral range: a port from that range
 * (what listening on port 0 gives) is also what the next outgoing connection or port-0 listener of
 * any process may take before the later process binds it (EADDRINUSE, seen on a busy machine).
 */
export async function freePorts(count: number): Promise<number[]> {
  const below = ephemeralRangeStart();
  const held: NetServer[] = [];
  try {
    for (let tries = 0; held.length < count; tries++) {
      if (tries > count * 50) throw new Error(`no ${count} free ports below ${below}`);
      const port = FREE_PORTS_FROM + Math.floor(Math.random() * (below - FREE_PORTS_FROM));
      if (held.some((s) => (s.address() as AddressInfo).port === port)) continue;
      const server = await new Promise<NetServer | undefined>((resolve) => {
        const candidate = createNetServer();
        candidate.once('error', () => resolve(undefined));
        candidate.listen(port, '127.0.0.1', () => resolve(candidate));
      });
      if (server) held.push(server);
    }
    return held.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

/** Where freePorts starts: above the well-known and the usual service ports (PostgreSQL, Redis, …). */
const FREE_PORTS_FROM = 10_000;

/** The first port of the kernel's ephemeral range (Linux; 32768 elsewhere or when unreadable). */
function ephemeralRangeStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > FREE_PORTS_FROM + 1_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}
