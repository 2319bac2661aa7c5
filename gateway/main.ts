import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, valueFromASTUntyped, type EnumTypeDefinitionNode } from 'graphql';
import { ConfigError, describeMode, isDevelopment, isLoopback, type Config } from '../lib/config';
import { loadConfig } from '../subgraphs/products';
import { requireSettings, runEntry } from '../lib/entry';
import { createLogger } from '../lib/logger';
import { projectRoot } from '../lib/paths';
import { listen, onShutdown } from '../lib/server';
import { READINESS_PATH, serviceCheck } from '../lib/probes';
import { parseServicePrivateKey, parseServicePublicKey } from '../lib/service-keys';
import { createGateway, gatewayLimits, responseCacheOf } from '.';
import { SignedRemoteDataSource } from './remote-datasource';
import { cachePoliciesOf, credentialsOf, supergraphFile } from '../subgraphs/products';
import { NotificationListener } from '../lib/database';

/**
 * The subgraphs a supergraph names, with the URL composition recorded for each
 * (`enum join__Graph { ACCESS @join__graph(name: "access", url: "http://access:4000/graphql") }`).
 */
function subgraphsOf(supergraphSdl: string): { name: string; url: string }[] {
  const graphs = parse(supergraphSdl).definitions.find(
    (d): d is EnumTypeDefinitionNode => d.kind === Kind.ENUM_TYPE_DEFINITION && d.name.value === 'join__Graph',
  );
  if (!graphs) throw new Error('schema/supergraph.graphql has no join__Graph enum: is it a composed supergraph?');
  return (graphs.values ?? []).map((value) => {
    const directive = value.directives?.find((d) => d.name.value === 'join__graph');
    const arg = (name: string) => valueFromASTUntyped(directive!.arguments!.find((a) => a.name.value === name)!.value) as string;
    return { name: arg('name'), url: arg('url') };
  });
}

/**
 * SUBGRAPH_URL_<NAME> when set, else the URL in the supergraph (the docker-compose service). A
 * setting that names no subgraph of the supergraph is a configuration error, not silently ignored.
 */
function subgraphUrls(config: Config, subgraphs: { name: string; url: string }[]): { name: string; url: string }[] {
  const unknown = Object.keys(config.subgraphUrls).filter((name) => !subgraphs.some((s) => s.name === name));
  if (unknown.length) {
    const known = subgraphs.map((s) => `SUBGRAPH_URL_${s.name.toUpperCase()}`).join(', ');
    throw new ConfigError(`Invalid configuration:\n${unknown.map((n) => `  SUBGRAPH_URL_${n.toUpperCase()}: names no subgraph (known: ${known})`).join('\n')}`);
  }
  return subgraphs.map((s) => ({ name: s.name, url: config.subgraphUrls[s.name] ?? s.url }));
}

/**
 * SERVICE_PUBLIC_KEY_<NAME>: each subgraph's public key, which the internal endpoint checks its
 * service principal against. A key that names no subgraph is a configuration error.
 */
function servicePublicKeys(config: Config, subgraphs: { name: string }[]) {
  const unknown = Object.keys(config.servicePublicKeys).filter((name) => !subgraphs.some((s) => s.name === name));
  if (unknown.length) {
    throw new ConfigError(`Invalid configuration:\n${unknown.map((n) => `  SERVICE_PUBLIC_KEY_${n.toUpperCase()}: names no subgraph`).join('\n')}`);
  }
  return Object.fromEntries(Object.entries(config.servicePublicKeys).map(([name, key]) => [name, parseServicePublicKey(key)]));
}

/**
 * The gateway as its own service (docker compose): the committed supergraph, subgraphs over HTTP.
 * Two listeners: the public endpoint (HOST:GATEWAY_PORT) for clients and the REST adapter, which
 * takes credentials and never a signed principal; and the internal one
 * (GATEWAY_INTERNAL_HOST:GATEWAY_INTERNAL_PORT, on the subgraphs' network only), which takes only
 * service principals signed by a subgraph's own key.
 */
async function main() {
  const config = requireSettings(loadConfig(), ['SERVICE_PRIVATE_KEY'], 'the gateway with remote subgraphs');
  const logger = createLogger(config.LOG_LEVEL, 'gateway');
  const supergraphSdl = readFileSync(join(projectRoot(), supergraphFile(config.PRODUCTS)), 'utf8');
  const subgraphs = subgraphUrls(config, subgraphsOf(supergraphSdl));
  const privateKey = parseServicePrivateKey(config.SERVICE_PRIVATE_KEY);
  // each data source fetches with Node's fetch (a keep-alive pool per subgraph, fresh DNS per connection, a timeout: gateway/datasources.ts)
  const dataSources = Object.fromEntries(subgraphs.map((s) => [s.name, new SignedRemoteDataSource(s.url, s.name, privateKey)]));
  const gateway = await createGateway({
    supergraphSdl,
    dataSources,
    credentials: credentialsOf(config.PRODUCTS),
    logger,
    development: isDevelopment(config),
    limits: gatewayLimits(config),
    bodyLimit: config.GATEWAY_BODY_LIMIT,
    // ready when every subgraph is (each checks its own database)
    readiness: Object.fromEntries(subgraphs.map((s) => [s.name, serviceCheck(new URL(READINESS_PATH, s.url).toString())])),
    trustProxy: config.TRUST_PROXY,
    servicePublicKeys: servicePublicKeys(config, subgraphs),
    // the cache hears the data changes on the database: without DATABASE_URL this gateway keeps none
    responseCache: config.DATABASE_URL ? responseCacheOf(config, cachePoliciesOf(config.PRODUCTS)) : undefined,
    directFetch: config.GATEWAY_DIRECT_FETCH,
  });
  const listener = config.DATABASE_URL && gateway.cache ? new NotificationListener(config.DATABASE_URL, logger) : undefined;
  if (listener) gateway.listenForChanges(listener);
  const server = await listen(gateway.app, config.HOST, config.GATEWAY_PORT, { requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS });
  const internal = await listen(gateway.internalApp!, config.GATEWAY_INTERNAL_HOST, config.GATEWAY_INTERNAL_PORT, {
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
  });
  onShutdown(
    async () => {
      await Promise.all([server.close(), internal.close()]);
      await listener?.close();
      await gateway.stop();
    },
    (msg, err) => (err ? logger.error({ err }, msg) : logger.info(msg)),
  );
  const openToNetwork = isDevelopment(config) && !isLoopback(config.HOST);
  logger[openToNetwork ? 'warn' : 'info'](
    { url: `${server.url}/graphql`, internalUrl: `${internal.url}/graphql`, subgraphs, mode: describeMode(config) },
    'gateway ready',
  );
}

void runEntry(main);
