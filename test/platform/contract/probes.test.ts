import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createLogger } from '../../../lib/logger';
import { projectRoot } from '../../../lib/paths';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DATABASE_CHECK_MEMO_MS, databaseCheck } from '../../../lib/probes';
import { freePorts, listen, type RunningServer } from '../../../lib/server';
import { inProcessExecutor } from '../../../rest-adapter/core/executor';
import { createSurfaceApp, type Surface } from '../../../rest-adapter/core/surface';
import { predictionSurface } from '../../../rest-adapter/predictions';
import { surfaceEntries } from '../../../rest-adapter/surfaces';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';

/**
 * Every REST surface and the gateway answer the probes: liveness `/healthz` and
 * `/livez` (the process serves; never the database), readiness `/readyz` (the database answers). A
 * surface whose contract defines a probe path of its own keeps it (the finance node's).
 */

let t: TestApp;
const servers: RunningServer[] = [];
let opsRoot: string;
beforeAll(async () => {
  t = await startTestApp();
  opsRoot = mkdtempSync(join(tmpdir(), 'matchday-probes-'));
  mkdirSync(join(opsRoot, 'operations'));
  writeFileSync(join(opsRoot, 'operations', 'OwnProbe.graphql'), 'query OwnProbe { __typename }');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await t?.stop();
  if (opsRoot) rmSync(opsRoot, { recursive: true, force: true });
});

/** A surface of the core with the prediction API's conventions, on its own port. */
async function surfaceServer(surface: Partial<Surface>, readiness: Parameters<typeof createSurfaceApp>[1]['readiness']) {
  const app = createSurfaceApp(
    { ...predictionSurface, product: relative(join(projectRoot(), 'rest-adapter'), opsRoot), routes: [], pages: undefined, ...surface },
    { config: t.config, executor: inProcessExecutor(t.app.gateway), logger: createLogger('silent'), bodyLimit: '100kb', readiness },
  );
  const server = await listen(app, '127.0.0.1', 0);
  servers.push(server);
  return server.url;
}

/** The gateway and every surface, leaving out those whose route table defines `path` (their contract's own probe). */
const services = (path: string) => [
  ['gateway', t.urls.gateway],
  ...surfaceEntries()
    .filter(([, { surface }]) => !surface.routes.some((r) => r.method === 'GET' && r.path === path))
    .map(([name]) => [name, t.urls[name]]),
];

it.each(['/healthz', '/livez'])('answers liveness on %s on every surface and the gateway: 200 {"status": "ok"}', async (path) => {
  for (const [name, base] of services(path)) {
    const res = await http(`${base}${path}`);
    expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 200, body: { status: 'ok' } });
    expect((await fetch(`${base}${path}`, { method: 'HEAD' })).status).toBe(200);
  }
});

it('answers readiness on /readyz on every surface and the gateway: 200 while the database answers', async () => {
  for (const [name, base] of services('/readyz')) {
    const res = await http(`${base}/readyz`);
    expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 200, body: { status: 'ready', checks: { database: 'ok' } } });
    expect(res.headers.get('cache-control')).toBe('no-store');
  }
});

it('reports unready with 503 and Retry-After when the database does not answer, while liveness stays 200', async () => {
  const [closed] = await freePorts(1);
  const url = await surfaceServer({}, { database: databaseCheck(`postgres://postgres@127.0.0.1:${closed}/nothing`) });
  const ready = await http(`${url}/readyz`);
  expect(ready.status).toBe(503);
  expect(ready.headers.get('retry-after')).toBe('5');
  expect(ready.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
  expect((await http(`${url}/healthz`)).status).toBe(200);
  expect((await http(`${url}/livez`)).status).toBe(200);
});

it("opens one database connection per second however many probes arrive: a flood of /readyz cannot take the server's connections", async () => {
  // a real socket that takes connections and never answers (a database that hangs): it counts them
  let connections = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    const url = await surfaceServer({}, { database: databaseCheck(`postgres://postgres@127.0.0.1:${port}/nothing`) });
    const answers = await Promise.all(Array.from({ length: 40 }, () => http(`${url}/readyz`)));
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(503));
    expect(connections).toBe(1);
    // the outcome holds a second; then the next probe asks the database again
    await new Promise((r) => setTimeout(r, DATABASE_CHECK_MEMO_MS + 100));
    expect((await http(`${url}/readyz`)).status).toBe(503);
    expect(connections).toBe(2);
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((r) => server.close(r));
  }
});

it('leaves a probe path to a surface whose route table defines it', async () => {
  const url = await surfaceServer(
    {
      routes: [
        {
          method: 'GET',
          path: '/healthz',
          summary: 'The contract’s own liveness',
          security: 'none',
          operation: 'OwnProbe',
          respond: () => ({ kind: 'json', body: { status: 'alive', own: true } }),
          response: { description: 'Its own body' },
        },
      ],
    },
    {},
  );
  expect((await http(`${url}/healthz`)).body).toEqual({ status: 'alive', own: true });
  // the others stay the core's
  expect((await http(`${url}/livez`)).body).toEqual({ status: 'ok' });
  expect((await http(`${url}/readyz`)).body).toEqual({ status: 'ready', checks: {} });
});
