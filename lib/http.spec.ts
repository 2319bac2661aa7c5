import express from 'express';
import { Writable } from 'node:stream';
import { requestContext } from './http';
import { createLogger } from './logger';
import { listen, type RunningServer } from './server';

/** The request context over real HTTP: an id per request, echoed, on every log line of the request (its logger made on first use). */
async function serve(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(requestContext(createLogger(level, 'spec', sink)));
  app.get('/quiet', (_req, res) => void res.send('ok'));
  app.get('/warns', (req, res) => {
    req.log.warn('something to say');
    res.send('ok');
  });
  const server = await listen(app, '127.0.0.1', 0);
  return { server, lines };
}

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

it('logs each request at info with its id, the id the caller sent when sane', async () => {
  const { server, lines } = await serve('info');
  running = server;
  const res = await fetch(`${server.url}/quiet`, { headers: { 'x-request-id': 'abc-123' } });
  expect(res.headers.get('x-request-id')).toBe('abc-123');
  await new Promise((r) => setTimeout(r, 50));
  expect(lines).toEqual([expect.objectContaining({ msg: 'request', requestId: 'abc-123', path: '/quiet', status: 200 })]);
});

it('at warn, a request that logs nothing writes nothing; one that logs carries its own id', async () => {
  const { server, lines } = await serve('warn');
  running = server;
  expect((await fetch(`${server.url}/quiet`)).status).toBe(200);
  const res = await fetch(`${server.url}/warns`);
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  await new Promise((r) => setTimeout(r, 50));
  expect(lines).toEqual([expect.objectContaining({ msg: 'something to say', requestId: id })]);
});
