import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, valueFromASTUntyped, type EnumTypeDefinitionNode } from 'graphql';
import { isDevelopment, loadConfig, type Config } from '../lib/config';
import { requireSettings, runEntry } from '../lib/entry';
import { createLogger } from '../lib/logger';
import { projectRoot } from '../lib/paths';
import { listen, onShutdown } from '../lib/server';
import { createGateway } from '.';
import { SignedRemoteDataSource } from './datasources';

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

/** SUBGRAPH_URL_<NAME> when set, else the URL in the supergraph (the docker-compose service). */
function subgraphUrl(config: Config, subgraph: { name: string; url: string }): string {
  const setting = `SUBGRAPH_URL_${subgraph.name.toUpperCase()}` as keyof Config;
  return (config[setting] as string | undefined) ?? subgraph.url;
}

/** The gateway as its own service (docker compose): the committed supergraph, subgraphs over HTTP. */
async function main() {
  const config = requireSettings(loadConfig(), ['INTERNAL_SECRET'], 'the gateway with remote subgraphs');
  const logger = createLogger(config.LOG_LEVEL, 'gateway');
  const supergraphSdl = readFileSync(join(projectRoot(), 'schema', 'supergraph.graphql'), 'utf8');
  const subgraphs = subgraphsOf(supergraphSdl).map((s) => ({ name: s.name, url: subgraphUrl(config, s) }));
  // RemoteGraphQLDataSource's default fetcher (make-fetch-happen) keeps connections alive, without a socket cap
  const dataSources = Object.fromEntries(subgraphs.map((s) => [s.name, new SignedRemoteDataSource(s.url, config.INTERNAL_SECRET)]));
  const gateway = await createGateway({
    supergraphSdl,
    dataSources,
    logger,
    development: isDevelopment(config),
    limits: { maxDepth: config.MAX_QUERY_DEPTH, maxCost: config.MAX_QUERY_COST },
    internalSecret: config.INTERNAL_SECRET,
  });
  const server = await listen(gateway.app, config.HOST, config.GATEWAY_PORT);
  onShutdown(
    async () => {
      await server.close();
      await gateway.stop();
    },
    (msg, err) => (err ? logger.error({ err }, msg) : logger.info(msg)),
  );
  logger.info({ url: `${server.url}/graphql`, subgraphs }, 'gateway ready');
}

void runEntry(main);
