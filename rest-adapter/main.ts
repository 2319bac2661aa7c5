import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import { loadConfig } from '../lib/config';
import { requireSettings, runEntry } from '../lib/entry';
import { createLogger } from '../lib/logger';
import { listen, onShutdown, type RunningServer } from '../lib/server';
import { httpExecutor } from './core/executor';
import { createSurfaceApp, type Surface } from './core/surface';
import { SURFACES } from './surfaces';

const HEALTH_PATH = '/healthz';

/**
 * GET /healthz for the container's probe, answered before the route table; a surface whose contract
 * defines its own /healthz (the finance node's) keeps that one.
 */
function withHealthCheck(surface: Surface, app: Express): RequestListener {
  if (surface.routes.some((r) => r.path === HEALTH_PATH)) return app;
  return (req, res) => {
    if (req.url === HEALTH_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"status":"ok"}');
      return;
    }
    app(req, res);
  };
}

/** The REST adapter as its own service (docker compose): every surface, calling the gateway over HTTP. */
async function main() {
  const config = requireSettings(loadConfig(), ['GATEWAY_URL'], 'the REST adapter');
  const logger = createLogger(config.LOG_LEVEL, 'rest-adapter');
  const executor = httpExecutor(config.GATEWAY_URL);
  const servers: RunningServer[] = [];
  for (const { surface, port } of SURFACES) {
    const app = createSurfaceApp(surface, { executor, logger, bodyLimit: config.REST_BODY_LIMIT });
    servers.push(await listen(withHealthCheck(surface, app), config.HOST, port(config)));
  }
  onShutdown(
    async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
    (msg, err) => (err ? logger.error({ err }, msg) : logger.info(msg)),
  );
  logger.info({ surfaces: SURFACES.map(({ surface }, i) => ({ product: surface.product, url: servers[i].url })), gateway: config.GATEWAY_URL }, 'REST adapter ready');
}

void runEntry(main);
