import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signPayload } from '../../../subgraphs/finance/banking/domain/providers';
import { composeIban } from '../../../subgraphs/finance/banking/domain/account-numbers';

export interface ProviderRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/**
 * A local banking provider speaking the rail's and MTN MoMo's HTTP protocol: it checks the bearer
 * key and the request signature, answers 401 for a bad one, can fail the next requests with 503 or
 * stall them (to exercise retries and timeouts), and remembers each idempotency key's first answer.
 */
export async function startBankingProvider(opts: { apiKey: string; signingSecret: string }) {
  const requests: ProviderRequest[] = [];
  const answered = new Map<string, { status: number; body: unknown }>();
  const faults: ('fail' | 'stall' | 'reissue')[] = [];
  let lastAccountNumber: string | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const timestamp = String(req.headers['x-banking-timestamp'] ?? '');
      const signed = req.headers['x-banking-signature'] === `v1=${signPayload(opts.signingSecret, timestamp, text)}`;
      if (req.headers.authorization !== `Bearer ${opts.apiKey}` || !signed) return reply(401, { error: 'unauthorised' });
      const body = JSON.parse(text) as Record<string, unknown>;
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      const fault = req.url === '/v1/accounts' || faults[0] !== 'reissue' ? faults.shift() : undefined;
      if (fault === 'stall') return; // never answers: the client's timeout ends it
      if (fault === 'fail') return reply(503, { error: 'unavailable' });
      const key = String(req.headers['idempotency-key'] ?? '');
      const seen = answered.get(key);
      if (seen) return reply(seen.status, seen.body);
      let out: { status: number; body: unknown };
      if (req.url === '/v1/accounts') {
        if (body.currency !== 'EUR') out = { status: 400, body: { error: 'unsupported currency' } };
        else
          out = {
            status: 201,
            // an account number of its own for each account ('reissue': the previous one again, a faulty rail)
            body: {
              id: `acc_${requests.length}`,
              account_number: (lastAccountNumber =
                fault === 'reissue' && lastAccountNumber ? lastAccountNumber : composeIban('DE', `10010010${String(requests.length).padStart(10, '0')}`)),
              bank_code: '10010010',
              bank_name: 'Local Rail',
            },
          };
      } else if (req.url === '/v1/transfers') out = { status: 201, body: { id: `tr_${requests.length}` } };
      else if (req.url === '/v1/ramp/quotes') out = { status: 200, body: { price: body.asset === 'BTC' ? '60000.5' : '1' } };
      else if (req.url === '/v1/ramp/orders') out = { status: 201, body: { id: `rmp_${requests.length}` } };
      else if (req.url === '/collection/v1_0/requesttopay' || req.url === '/disbursement/v1_0/transfer') out = { status: 202, body: {} };
      else out = { status: 404, body: { error: 'not found' } };
      answered.set(key, out);
      reply(out.status, out.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The next requests fail (503) or stall, in this order; `reissue`: the next account gets the previous account's number. */
    fault(...next: ('fail' | 'stall' | 'reissue')[]) {
      faults.push(...next);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
