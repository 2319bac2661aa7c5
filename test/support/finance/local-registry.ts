import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { licenceKeys, licenceToken } from './node';

/**
 * A local server that answers exactly the licence registry's endpoints a finance node uses and their
 * envelopes (register, checkout, public key, heartbeat), signing with the test vendor's key pair
 * (licenceKeys(): the one installValidLicence uses in the same file), and records what it received.
 */
export const LICENCE_KEY = 'LIC-TEST-0001-ABCD';

interface Received {
  method: string;
  path: string;
  licenceKey?: string;
  body: Record<string, unknown> | undefined;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** The state a heartbeat reported (metrics.status). */
export const beatStatus = (beat: Received) => (beat.body?.metrics as { status?: string } | undefined)?.status;

export class LocalRegistry {
  readonly received: Received[] = [];
  nodeLimitReached = false;
  private server!: Server;
  private beatWaiters: { count: number; resolve: () => void }[] = [];
  readonly keys = licenceKeys();
  url = '';

  /** intervalSeconds: the heartbeat interval it answers (1 s: a test sees several beats). */
  constructor(readonly intervalSeconds = 1) {}

  async start() {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(r));
  }

  heartbeats() {
    return this.received.filter((r) => r.path === '/api/v1/deployments/heartbeat');
  }

  /** Resolves once `count` heartbeats have arrived in all. */
  heartbeatsReach(count: number): Promise<void> {
    if (this.heartbeats().length >= count) return Promise.resolve();
    return new Promise((resolve) => this.beatWaiters.push({ count, resolve }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const received: Received = {
      method: req.method!,
      path: req.url!,
      licenceKey: req.headers['x-license-key'] as string | undefined,
      body: raw ? JSON.parse(raw) : undefined,
      at: Date.now(),
    };
    this.received.push(received);
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const ok = (status: number, data: unknown) => send(status, { success: true, data });
    if (received.path !== '/api/v1/license/public-key' && received.licenceKey !== LICENCE_KEY) {
      return send(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'A valid licence key is required.' } });
    }
    switch (`${req.method} ${received.path}`) {
      case 'POST /api/v1/deployments/register':
        if (this.nodeLimitReached) return send(403, { success: false, error: { code: 'NODE_LIMIT_EXCEEDED', message: 'This licence allows 3 nodes.' } });
        return ok(201, {
          id: 'dep_0001',
          deploymentKey: 'dk_secret_0001',
          status: 'alive',
          heartbeatIntervalSeconds: this.intervalSeconds,
          nextHeartbeatAt: new Date(Date.now() + this.intervalSeconds * 1000).toISOString(),
          registeredAt: new Date().toISOString(),
        });
      case 'POST /api/v1/license/checkout':
        return ok(200, {
          token: await licenceToken(this.keys),
          expiresAt: new Date(Date.now() + 30 * 86400_000).toISOString(),
          algorithm: 'EdDSA',
          keyId: 'test-key',
          publicKey: this.keys.publicKeyLine,
        });
      case 'GET /api/v1/license/public-key':
        return ok(200, { algorithm: 'EdDSA', keyId: 'test-key', publicKey: this.keys.publicKeyLine });
      case 'POST /api/v1/deployments/heartbeat': {
        ok(200, {
          status: 'alive',
          heartbeatIntervalSeconds: this.intervalSeconds,
          nextHeartbeatAt: new Date(Date.now() + this.intervalSeconds * 1000).toISOString(),
        });
        const n = this.heartbeats().length;
        this.beatWaiters = this.beatWaiters.filter((w) => (n >= w.count ? (w.resolve(), false) : true));
        return;
      }
      default:
        return send(404, { success: false, error: { code: 'NOT_FOUND', message: 'Not found.' } });
    }
  }
}
