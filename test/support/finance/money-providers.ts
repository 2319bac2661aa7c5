import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandboxIssuer } from '../../../subgraphs/finance/cards/domain/issuer';
import { SandboxExchange } from '../../../subgraphs/finance/crypto/domain/exchange';
import type { CryptoAsset } from '../../../subgraphs/finance/crypto/vocabulary';

/**
 * A local peer speaking the card issuer's and the crypto exchange's HTTP protocols (what HttpIssuer and
 * HttpExchange call: bearer API key, Idempotency-Key on writes), answered by the offline sandboxes. While
 * `refusing` is set it refuses every request with 400, as a provider that does not accept it (the node
 * answers 502). `env` points a test app at it.
 */
export async function startMoneyProviders() {
  const apiKey = 'sk_local_money_providers';
  const state = { refusing: false };
  const secrets = { issuer: 'whsec_local_card_issuer_0123456789', exchange: 'whsec_local_crypto_exchange_0123456789' };
  const issuer = new SandboxIssuer(secrets.issuer);
  const exchange = new SandboxExchange(secrets.exchange);
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const reply = (status: number, body: unknown) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${apiKey}`) return reply(401, { error: 'unauthorised' });
      if (state.refusing) return reply(400, { error: 'refused on purpose' });
      const url = new URL(req.url ?? '/', 'http://peer');
      const body = (text ? JSON.parse(text) : {}) as Record<string, string>;
      const key = String(req.headers['idempotency-key'] ?? '');
      const answer = async (): Promise<[number, unknown]> => {
        if (req.method === 'POST' && url.pathname === '/v1/issuing/cards') {
          const card = await issuer.issueCard({ idempotencyKey: key });
          return [200, { id: card.providerCardId, number: card.pan, exp_month: card.expMonth, exp_year: card.expYear }];
        }
        const card = /^\/v1\/issuing\/cards\/([^/]+)$/.exec(url.pathname);
        if (req.method === 'POST' && card) return [200, { id: decodeURIComponent(card[1]), status: body.status }];
        if (req.method === 'GET' && card) return [200, { id: decodeURIComponent(card[1]), cvc: await issuer.cvcOf(decodeURIComponent(card[1])) }];
        if (req.method === 'POST' && url.pathname === '/v1/deposit-addresses') {
          const address = await exchange.createDepositAddress({ asset: body.asset as CryptoAsset, reference: key });
          return [200, { id: address.providerAddressId, address: address.address, network: address.network }];
        }
        if (req.method === 'GET' && url.pathname === '/v1/rates') {
          return [200, { rate: await exchange.rate(url.searchParams.get('from') as CryptoAsset, url.searchParams.get('to') as CryptoAsset) }];
        }
        return [404, { error: 'not found' }];
      };
      answer().then(
        ([status, out]) => reply(status, out),
        (err: Error) => reply(500, { error: err.message }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    state,
    env: {
      CARD_ISSUER_URL: url,
      CARD_ISSUER_API_KEY: apiKey,
      CARD_ISSUER_WEBHOOK_SECRET: secrets.issuer,
      CRYPTO_EXCHANGE_URL: url,
      CRYPTO_EXCHANGE_API_KEY: apiKey,
      CRYPTO_EXCHANGE_WEBHOOK_SECRET: secrets.exchange,
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
