import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpSupergraphClient } from './supergraph-client';

/** The subgraphs' client of the gateway's internal endpoint, against local servers. */
describe('httpSupergraphClient', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  let server: Server;
  let url: string;
  let requests = 0;
  let answer: 'never' | 'data' = 'never';

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      req.resume();
      if (answer === 'data') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { ok: true } }));
      // 'never': accepts the request and keeps it waiting
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('fails an attempt the gateway does not answer within timeoutMs, once, without repeating it', async () => {
    answer = 'never';
    requests = 0;
    const client = httpSupergraphClient(url, privateKey, 'ledger', { timeoutMs: 300 });
    await expect(client.request('{ ok }')).rejects.toThrow(/did not answer within 0.3 s/);
    expect(requests).toBe(1);
  });

  it('answers what the gateway answers', async () => {
    answer = 'data';
    const client = httpSupergraphClient(url, privateKey, 'ledger', { timeoutMs: 300 });
    await expect(client.request<{ ok: boolean }>('{ ok }')).resolves.toEqual({ ok: true });
  });
});
