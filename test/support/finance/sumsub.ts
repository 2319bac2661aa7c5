import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the local provider received, with whether its X-App-Access-Sig verified. */
export interface ProviderCall {
  method: string;
  path: string;
  contentType: string;
  body: Buffer;
  signed: boolean;
}

/**
 * A local server speaking Sumsub's API where the real provider would be: it checks each request's
 * signature (X-App-Token, X-App-Access-Ts, X-App-Access-Sig = hex HMAC-SHA256 of ts + method + path
 * + body), creates applicants and accepts documents and submissions; decisions are sent back by the
 * test as signed webhooks (`signedWebhook`).
 */
export class LocalSumsub {
  readonly calls: ProviderCall[] = [];
  private server: Server | undefined;
  /** Answer every request with this status (a provider failing). */
  failWith: number | undefined;

  constructor(
    readonly appToken: string,
    readonly secretKey: string,
  ) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const path = req.url ?? '/';
        const ts = String(req.headers['x-app-access-ts'] ?? '');
        const expected = createHmac('sha256', this.secretKey)
          .update(ts + (req.method ?? '') + path)
          .update(body)
          .digest('hex');
        const signed = req.headers['x-app-token'] === this.appToken && req.headers['x-app-access-sig'] === expected;
        this.calls.push({ method: req.method ?? '', path, contentType: String(req.headers['content-type'] ?? ''), body, signed });
        const reply = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        if (this.failWith) return reply(this.failWith, { description: 'failing on purpose' });
        if (!signed) return reply(401, { description: 'Request signature mismatch', code: 401 });
        if (req.method === 'POST' && path.startsWith('/resources/applicants?levelName='))
          return reply(201, { id: randomUUID().replace(/-/g, ''), createdAt: new Date().toISOString() });
        if (req.method === 'POST' && /^\/resources\/applicants\/[^/]+\/info\/idDoc$/.test(path)) return reply(200, { idDocType: 'PASSPORT' });
        if (req.method === 'POST' && /^\/resources\/applicants\/[^/]+\/status\/pending$/.test(path)) return reply(200, { ok: 1 });
        reply(404, { description: 'Not found' });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A webhook body and its headers, signed as Sumsub signs them. */
export function signedWebhook(secret: string, payload: Record<string, unknown>, algorithm: 'HMAC_SHA256_HEX' | 'HMAC_SHA512_HEX' = 'HMAC_SHA256_HEX') {
  const body = JSON.stringify(payload);
  const digest = createHmac(algorithm === 'HMAC_SHA256_HEX' ? 'sha256' : 'sha512', secret)
    .update(body)
    .digest('hex');
  return { body, headers: { 'content-type': 'application/json', 'x-payload-digest': digest, 'x-payload-digest-alg': algorithm } };
}
