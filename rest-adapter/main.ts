import { loadConfig } from '../subgraphs/products';
import { requireSettings, runEntry } from '../lib/entry';
import { createLogger } from '../lib/logger';
import { READINESS_PATH, serviceCheck } from '../lib/probes';
import { listen, onShutdown, type RunningServer } from '../lib/server';
import { httpExecutor } from './core/executor';
import { createSurfaceApp } from './core/surface';
import { surfaceEntries } from './surfaces';

/**
 * The REST adapter as its own service (docker compose): every surface, calling the gateway over HTTP.
 * Each surface answers the probes (lib/probes.ts); it is ready when the gateway is.
 */
async function main() {
  const config = requireSettings(loadConfig(), ['GATEWAY_URL'], 'the REST adapter');
  const logger = createLogger(config.LOG_LEVEL, 'rest-adapter');
  const executor = httpExecutor(config.GATEWAY_URL, { timeoutMs: config.GATEWAY_TIMEOUT_MS });
  const readiness = { gateway: serviceCheck(new URL(READINESS_PATH, config.GATEWAY_URL).toString()) };
  const servers: RunningServer[] = [];
  for (const [, { surface, port }] of surfaceEntries()) {
    const app = createSurfaceApp(surface, { config, executor, logger, bodyLimit: config.REST_BODY_LIMIT, trustProxy: config.TRUST_PROXY, readiness });
    servers.push(await listen(app, config.HOST, port(config), { requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS }));
  }
  onShutdown(
    async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
    (msg, err) => (err ? logger.error({ err }, msg) : logger.info(msg)),
  );
  logger.info({ surfaces: surfaceEntries().map(([name], i) => ({ name, url: servers[i].url })), gateway: config.GATEWAY_URL }, 'REST adapter ready');
}

void runEntry(main);
