import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyTooLarge, readJson, readText } from '../../../lib/bounded-body';
import { fixedSecret, ProviderClient } from './provider-http';

/**
 * A peer that streams a reply without Content-Length (chunked) for as long as it is read: the reader
 * stops at its limit and hangs up, having read little more than the limit, where Response.text() read
 * everything (700 MB took a process from 302 MB to 2.3 GB).
 */
let server: Server;
let base: string;
let written = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/declared') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
      return void res.write('{"a":"');
    }
    if (req.url === '/small') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      // up to 256 MB, as fast as the reader takes it
      while (sent < 4096 && res.write(chunk)) {
        sent++;
        written += chunk.length;
      }
      if (sent < 4096 && !res.destroyed) res.once('drain', pump);
      else res.end();
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('reads a reply within its limit', async () => {
  expect(await readJson(await fetch(`${base}/small`))).toEqual({ ok: true });
});

it('cuts an endless chunked reply at its limit, having read little more than it', async () => {
  written = 0;
  await expect(readText(await fetch(`${base}/stream`), 1024 * 1024)).rejects.toBeInstanceOf(BodyTooLarge);
  // the peer could write what the socket buffers hold beyond the limit, not the 256 MB
  expect(written).toBeLessThan(32 * 1024 * 1024);
});

it('refuses a declared Content-Length over the limit before reading', async () => {
  await expect(readText(await fetch(`${base}/declared`), 1024 * 1024)).rejects.toBeInstanceOf(BodyTooLarge);
});

it('a provider whose reply never ends is unavailable (after its retries), not a process out of memory', async () => {
  const client = new ProviderClient({ provider: 'card issuer', baseUrl: base, apiKey: fixedSecret('sk_test'), attempts: 2, backoffMs: 1 });
  await expect(client.request('GET', '/stream')).rejects.toMatchObject({ extensions: { http: { status: 503 } } });
});
