import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchFeed } from '../../../subgraphs/predictions/football/store/feed-client';

/**
 * The feed client against hostile peers over real HTTP: a redirect is
 * followed only to the configured host; a chunked body without Content-Length is counted while it
 * streams and cut at the limit — a 700 MB stream is never buffered.
 */

let server: Server;
let base: string;
let streamed = 0;
let streamClosed = false;
const MB = 1024 * 1024;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/file.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"matches":[]}');
    if (url === '/moved') return void res.writeHead(301, { location: '/file.json' }).end();
    if (url === '/elsewhere') return void res.writeHead(302, { location: 'http://127.0.0.2:9/file.json' }).end();
    if (url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (url === '/endless') {
      // 700 MB announced by nothing: chunked, as fast as the client reads
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(MB, 0x20);
      res.on('close', () => (streamClosed = true));
      const pump = () => {
        while (streamed < 700 * MB) {
          streamed += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const none = { etag: null, lastModified: null };
const opts = { timeoutMs: 20_000, retries: 2, backoffMs: 10 };

it('follows a redirect on the configured host', async () => {
  const res = await fetchFeed(`${base}/moved`, none, opts);
  expect(res.status).toBe('ok');
  expect(res.status === 'ok' && res.body.toString()).toBe('{"matches":[]}');
});

it('refuses a redirect to another host, at once and without retrying', async () => {
  const started = Date.now();
  await expect(fetchFeed(`${base}/elsewhere`, none, opts)).rejects.toThrow(
    /redirected to http:\/\/127\.0\.0\.2:9\/file\.json, another host than the configured one: refused/,
  );
  expect(Date.now() - started).toBeLessThan(2_000);
  await expect(fetchFeed(`${base}/loop`, none, opts)).rejects.toThrow(/more than 5 redirects/);
});

it('cuts a chunked body without Content-Length at the limit: 700 MB are never buffered', async () => {
  const rssBefore = process.memoryUsage().rss;
  await expect(fetchFeed(`${base}/endless`, none, { ...opts, maxBytes: 32 * MB })).rejects.toThrow(
    /more than the 33554432 bytes a feed file may have \(cut at \d+ bytes\)/,
  );
  const grew = process.memoryUsage().rss - rssBefore;
  await new Promise((r) => setTimeout(r, 200));
  // the transfer was cut: the peer saw the connection end long before its 700 MB
  expect(streamClosed).toBe(true);
  expect(streamed).toBeLessThan(200 * MB);
  expect(grew).toBeLessThan(150 * MB);
});
