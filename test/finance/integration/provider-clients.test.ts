import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { number as cardNumber } from 'card-validator';
import { DomainError } from '../../../lib/errors';
import { fixedSecret, signWebhook, verifyWebhook } from '../../../subgraphs/finance/kernel/provider-http';
import { HttpIssuer, SandboxIssuer, luhnCheckDigit } from '../../../subgraphs/finance/cards/domain/issuer';
import { HttpExchange, SandboxExchange } from '../../../subgraphs/finance/crypto/domain/exchange';

/**
 * The issuer's and the exchange's HTTP clients against a local server speaking their protocol: the
 * API key as a bearer token, an Idempotency-Key on writes (the same on every retry), retries on 5xx
 * and timeouts, no retry on a 4xx; the webhook signature scheme; the offline sandboxes.
 */
interface Seen {
  method: string;
  path: string;
  authorization?: string;
  idempotencyKey?: string;
  body: unknown;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
let script: ((req: Seen, res: ServerResponse) => void)[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method!,
        path: req.url!,
        authorization: req.headers.authorization,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        body: text ? JSON.parse(text) : undefined,
      };
      seen.push(entry);
      const next = script.shift();
      if (next) next(entry, res);
      else res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  script = [];
});

const reply = (status: number, body?: unknown) => (_req: Seen, res: ServerResponse) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
const hang = () => () => undefined;

const options = { apiKey: fixedSecret('sk_test_123'), webhookSecret: fixedSecret('whsec_test'), timeoutMs: 300, attempts: 3, backoffMs: 10 };

describe('HttpIssuer', () => {
  it('issues a card with the API key and one Idempotency-Key across retries (a 503 and a timeout), and validates the number', async () => {
    const issuer = new HttpIssuer({ baseUrl: base, ...options });
    script = [reply(503), hang(), reply(200, { id: 'ic_1', number: '4242424242424242', exp_month: 12, exp_year: 2030 })];
    const card = await issuer.issueCard({ cardholder: 'u1', currency: 'EUR', idempotencyKey: 'card-1' });
    expect(card).toEqual({ providerCardId: 'ic_1', pan: '4242424242424242', brand: 'visa', expMonth: 12, expYear: 2030 });
    expect(seen.map((s) => [s.method, s.path, s.authorization, s.idempotencyKey])).toEqual(
      Array.from({ length: 3 }, () => ['POST', '/v1/issuing/cards', 'Bearer sk_test_123', 'card-1']),
    );
    expect(seen[0].body).toEqual({ type: 'virtual', cardholder: 'u1', currency: 'EUR' });
  });

  it('does not retry a 4xx, gives up after its attempts with 503 PROVIDER_UNAVAILABLE, and refuses an invalid number with 502', async () => {
    const issuer = new HttpIssuer({ baseUrl: base, ...options });
    script = [reply(400, { error: 'bad' })];
    await expect(issuer.issueCard({ cardholder: 'u1', currency: 'EUR', idempotencyKey: 'k' })).rejects.toMatchObject({
      code: 'PROVIDER_REJECTED',
      status: 502,
    });
    expect(seen).toHaveLength(1);
    seen.length = 0;
    script = [reply(500), reply(502), reply(503)];
    await expect(issuer.setActive('ic_1', false)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', status: 503 });
    expect(seen.map((s) => [s.path, s.body])).toEqual(Array.from({ length: 3 }, () => ['/v1/issuing/cards/ic_1', { status: 'inactive' }]));
    script = [reply(200, { id: 'ic_2', number: '4242424242424241', exp_month: 1, exp_year: 2030 })];
    await expect(issuer.issueCard({ cardholder: 'u1', currency: 'EUR', idempotencyKey: 'k2' })).rejects.toMatchObject({ code: 'PROVIDER_REJECTED' });
  });
});

describe('HttpExchange', () => {
  it('creates a deposit address idempotently and reads rates; an unusable rate is 502', async () => {
    const exchange = new HttpExchange({ baseUrl: base, ...options });
    script = [reply(502), reply(201, { id: 'addr_1', address: 'bc1qexample', network: 'bitcoin' })];
    expect(await exchange.createDepositAddress({ asset: 'BTC', reference: 'ref-1' })).toEqual({
      providerAddressId: 'addr_1',
      address: 'bc1qexample',
      network: 'bitcoin',
    });
    expect(seen.map((s) => [s.method, s.path, s.idempotencyKey, s.body])).toEqual([
      ['POST', '/v1/deposit-addresses', 'ref-1', { asset: 'BTC' }],
      ['POST', '/v1/deposit-addresses', 'ref-1', { asset: 'BTC' }],
    ]);
    script = [reply(200, { rate: '20.5' })];
    expect(await exchange.rate('BTC', 'ETH')).toBe('20.5');
    expect(seen[2]).toMatchObject({ method: 'GET', path: '/v1/rates?from=BTC&to=ETH', authorization: 'Bearer sk_test_123' });
    for (const rate of ['-1', '0', 'abc', 12]) {
      script = [reply(200, { rate })];
      await expect(exchange.rate('BTC', 'ETH')).rejects.toMatchObject({ code: 'PROVIDER_REJECTED', status: 502 });
    }
  });
});

describe('webhook signatures', () => {
  it('verifies its own signature whatever the key order, and refuses another secret, another body or a stale timestamp', () => {
    const now = new Date();
    const header = signWebhook('s3cret', { b: 1, a: { d: 2, c: 3 } }, now);
    expect(() => verifyWebhook('s3cret', { a: { c: 3, d: 2 }, b: 1 }, header, now)).not.toThrow();
    for (const [secret, body, at] of [
      ['other', { b: 1, a: { d: 2, c: 3 } }, now],
      ['s3cret', { b: 2, a: { d: 2, c: 3 } }, now],
      ['s3cret', { b: 1, a: { d: 2, c: 3 } }, new Date(now.getTime() + 301_000)],
    ] as const) {
      let error: unknown;
      try {
        verifyWebhook(secret, body, header, at);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect([(error as DomainError).code, (error as DomainError).status]).toEqual(['WEBHOOK_SIGNATURE_INVALID', 401]);
    }
  });
});

describe('sandboxes', () => {
  it('issue Luhn-valid Visa test numbers, the same card for a retried key', async () => {
    const sandbox = new SandboxIssuer('secret');
    const a = await sandbox.issueCard({ idempotencyKey: 'k1' });
    expect(cardNumber(a.pan).isValid).toBe(true);
    expect(a.pan).toMatch(/^400000\d{10}$/);
    expect(await sandbox.issueCard({ idempotencyKey: 'k1' })).toEqual(a);
    expect((await sandbox.issueCard({ idempotencyKey: 'k2' })).pan).not.toBe(a.pan);
    expect(luhnCheckDigit('424242424242424')).toBe('2');
  });

  it('give each reference its address in the network format, and exact reference rates', async () => {
    const sandbox = new SandboxExchange('secret');
    expect((await sandbox.createDepositAddress({ asset: 'ETH', reference: 'r' })).address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await sandbox.createDepositAddress({ asset: 'BTC', reference: 'r' })).toEqual(await sandbox.createDepositAddress({ asset: 'BTC', reference: 'r' }));
    expect(await sandbox.rate('BTC', 'ETH')).toBe('20');
    expect(await sandbox.rate('USDC', 'BTC')).toBe('0.000016666666');
  });
});
