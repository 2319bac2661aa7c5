import { connect } from 'node:net';
import { startTestApp, type TestApp } from '../../support/platform/app';

/**
 * Protocol corners on every listener (lib/server.ts). A CONNECT request used to close
 * the connection with no answer; a body shorter than its Content-Length held the connection for
 * 325 s before its 408. HTTP_REQUEST_TIMEOUT_MS bounds it (60 s by default; 2 s here).
 */

let t: TestApp<'registry'>;
beforeAll(async () => {
  t = await startTestApp({ HTTP_REQUEST_TIMEOUT_MS: '2000' }, { products: ['registry'] });
}, 120_000);
afterAll(() => t?.stop());

/** Writes `raw` to the listener of `url` and returns what comes back until the server closes (or 20 s pass). */
function exchange(url: string, raw: string): Promise<{ answer: string; seconds: number }> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (answer += d));
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, seconds: (Date.now() - started) / 1000 }));
    setTimeout(() => socket.destroy(), 20_000).unref();
  });
}

it.each(['gateway', 'registry'] as const)('answers CONNECT with 405 on the %s listener (not a silent close)', async (surface) => {
  const { answer } = await exchange(t.urls[surface], 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
  expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
  expect(answer).toMatch(/\r\nAllow: GET, HEAD, POST/);
  expect(answer).toContain('"code":"method_not_allowed"');
});

it.each(['gateway', 'registry'] as const)('answers 408 within the request timeout to a body shorter than its Content-Length (%s)', async (surface) => {
  const path = surface === 'gateway' ? '/graphql' : '/api/v1/artifacts/00000000-0000-0000-0000-000000000000/authorize';
  const { answer, seconds } = await exchange(
    t.urls[surface],
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":`,
  );
  expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(seconds).toBeLessThan(6);
});
