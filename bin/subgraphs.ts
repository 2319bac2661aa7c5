import type { SubgraphCachePolicy } from '../lib/cache-policy';
import type { Config } from '../lib/config';
import type { GatewayOptions } from '../gateway';
import type { CredentialKind } from '../lib/credentials';
import type { ServicesOf } from '../lib/subgraph';
import { accessSubgraph } from '../subgraphs/access';
import { bankingSubgraph } from '../subgraphs/banking';
import { complianceSubgraph } from '../subgraphs/compliance';
import { cardsSubgraph } from '../subgraphs/cards';
import { cryptoSubgraph } from '../subgraphs/crypto';
import { commerceSubgraph } from '../subgraphs/commerce';
import { footballSubgraph } from '../subgraphs/football';
import { identitySubgraph } from '../subgraphs/identity';
import { investingSubgraph } from '../subgraphs/investing';
import { ledgerSubgraph } from '../subgraphs/ledger';
import { licensingSubgraph } from '../subgraphs/licensing';
import { nodeSubgraph } from '../subgraphs/node';
import { paymentsSubgraph } from '../subgraphs/payments';
import { predictionsSubgraph } from '../subgraphs/predictions';

/** Every subgraph of the supergraph, in start order (football data first: others build on it). One line each. */
export const SUBGRAPHS = [
  footballSubgraph,
  accessSubgraph,
  predictionsSubgraph,
  licensingSubgraph,
  nodeSubgraph,
  identitySubgraph,
  ledgerSubgraph,
  complianceSubgraph,
  bankingSubgraph,
  cardsSubgraph,
  cryptoSubgraph,
  commerceSubgraph,
  investingSubgraph,
  paymentsSubgraph,
] as const;

export type SubgraphName = (typeof SUBGRAPHS)[number]['name'];

/** Each subgraph's domain services, by subgraph name. */
export type SubgraphServices = { [D in (typeof SUBGRAPHS)[number] as D['name']]: ServicesOf<D> };

/** Every credential kind, in the order the gateway tries them on a shared source. */
export const CREDENTIALS: readonly CredentialKind[] = SUBGRAPHS.flatMap((def) => def.credentials ?? []);

/** What the gateway's response cache may keep, by subgraph, with the schema whose changes evict it. */
export const CACHE_POLICIES: Record<string, SubgraphCachePolicy> = Object.fromEntries(
  SUBGRAPHS.flatMap((def) => (def.cache ? [[def.name, { ...def.cache, schema: def.store.schema }]] : [])),
);

/** Default URLs in the docker-compose network (one service per subgraph). */
export const composeUrl = (name: string) => `http://${name}:4000/graphql`;

/** The response cache's settings (RESPONSE_CACHE…), with every subgraph's policy; undefined when it is off. */
export function responseCacheOf(config: Config): GatewayOptions['responseCache'] {
  if (!config.RESPONSE_CACHE) return undefined;
  return { policies: CACHE_POLICIES, maxBytes: config.RESPONSE_CACHE_MAX_MB * 1024 * 1024, ttlSeconds: config.RESPONSE_CACHE_TTL_SECONDS };
}
