import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../../subgraphs/products';
import { createLogger } from '../../../lib/logger';
import { listen, type RunningServer } from '../../../lib/server';
import { httpExecutor } from '../../../rest-adapter/core/executor';
import { createSurfaceApp } from '../../../rest-adapter/core/surface';
import { SURFACES, type SurfaceName } from '../../../rest-adapter/surfaces';
import { http } from '../../support/platform/http';

/**
 * The REST adapter as its own service (docker compose) in front of a gateway that accepts the
 * connection and never answers: after GATEWAY_TIMEOUT_MS each surface answers 503 with Retry-After in
 * its own error body, instead of holding the request for ever. No database: nothing gets that far.
 */

const config = loadConfig({ GATEWAY_TIMEOUT_MS: '300' });
let hung: Server;
const sockets = new Set<Socket>();
const surfaces: RunningServer[] = [];

beforeAll(async () => {
  hung = createServer((socket) => {
    // reads the request and says nothing
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await Promise.all(surfaces.map((s) => s.close()));
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => hung?.close(resolve));
});

async function surfaceBehindHungGateway(name: SurfaceName) {
  const gateway = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/graphql`;
  const executor = httpExecutor(gateway, { timeoutMs: config.GATEWAY_TIMEOUT_MS });
  const server = await listen(
    createSurfaceApp(SURFACES[name].surface, { config, executor, logger: createLogger('silent'), bodyLimit: config.REST_BODY_LIMIT }),
    '127.0.0.1',
    0,
  );
  surfaces.push(server);
  return server.url;
}

it.each([
  ['finance', '/api/v1/node/', {}, { detail: expect.any(String), code: 'service_unavailable' }],
  ['predictions', '/api/predictions/latest/', { key: 'pk_live_whatever' }, { detail: expect.any(String), code: 'service_unavailable' }],
  [
    'registry',
    '/api/v1/releases',
    { headers: { 'x-license-key': 'LIC-AAAA-BBBB-CCCC' } },
    { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } },
  ],
] as const)('%s: a gateway that never answers is 503 with Retry-After after GATEWAY_TIMEOUT_MS (%s)', async (name, path, init, body) => {
  const base = await surfaceBehindHungGateway(name);
  const res = await http(`${base}${path}`, init);
  expect([res.status, res.headers.get('retry-after'), res.body]).toEqual([503, '5', body]);
  expect(sockets.size).toBeGreaterThan(0);
});
