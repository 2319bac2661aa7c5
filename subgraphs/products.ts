import type { SubgraphCachePolicy } from '../lib/cache-policy';
import { composeConfig } from '../lib/config';
import type { CredentialKind } from '../lib/credentials';
import type { ServicesOf, SubgraphDefinition } from '../lib/subgraph';
import { financeProduct } from './finance/product';
import { predictionsProduct } from './predictions/product';
import { registryProduct } from './registry/product';

/**
 * The three products: the one list that the gateway, the REST adapter and the entry points read. Each
 * product's manifest (its subgraphs' names, credential kinds and cache policies) is light; its subgraphs'
 * code loads only in a process that runs it (`loadSubgraphs`), so the gateway loads none.
 * `PRODUCTS` (the setting) chooses what a process runs; the order here is the start order and the
 * order in which the gateway tries credential kinds on a shared source.
 */
export const PRODUCTS = { predictions: predictionsProduct, registry: registryProduct, finance: financeProduct } as const;
export type ProductName = keyof typeof PRODUCTS;
export const PRODUCT_NAMES = Object.keys(PRODUCTS) as ProductName[];

/**
 * The system's configuration: the platform's settings and every product's, validated in every process
 * whichever products it runs (a standalone subgraph validates its own product's: lib/subgraph-server.ts).
 */
export const { loadConfig, SETTING_NAMES, isSetting, PUBLIC_URLS } = composeConfig(PRODUCT_NAMES.map((p) => PRODUCTS[p]));

interface Definitions {
  predictions: (typeof import('./predictions'))['predictionsSubgraphs'];
  registry: (typeof import('./registry'))['registrySubgraphs'];
  finance: (typeof import('./finance'))['financeSubgraphs'];
}
export type SubgraphOf<P extends ProductName> = Definitions[P][number];
export type SubgraphName<P extends ProductName = ProductName> = SubgraphOf<P>['name'];
/** Each subgraph's domain services, by subgraph name, for the products P. */
export type SubgraphServices<P extends ProductName = ProductName> = { [D in SubgraphOf<P> as D['name']]: ServicesOf<D> };

/* eslint-disable @typescript-eslint/no-require-imports -- synchronous and on demand (import() does not run under jest's CommonJS) */
const loaders: { [P in ProductName]: () => Definitions[P] } = {
  predictions: () => (require('./predictions') as typeof import('./predictions')).predictionsSubgraphs,
  registry: () => (require('./registry') as typeof import('./registry')).registrySubgraphs,
  finance: () => (require('./finance') as typeof import('./finance')).financeSubgraphs,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The subgraph definitions of the products, in start order (their code loads here). */
export function loadSubgraphs<P extends ProductName>(products: readonly P[]): readonly SubgraphOf<P>[] {
  return inOrder(products).flatMap((p) => loaders[p]() as readonly SubgraphDefinition<unknown>[]) as SubgraphOf<P>[];
}

/** The names of every subgraph of the products, in start order (without loading their code). */
export const subgraphNamesOf = (products: readonly ProductName[]): string[] => inOrder(products).flatMap((p) => PRODUCTS[p].subgraphs);

/** The products in catalogue order, each once. */
export const inOrder = (products: readonly ProductName[]): ProductName[] => PRODUCT_NAMES.filter((p) => products.includes(p));

/** The credential kinds of the products, in the order the gateway tries them. */
export const credentialsOf = (products: readonly ProductName[]): CredentialKind[] => inOrder(products).flatMap((p) => PRODUCTS[p].credentials);

/** What the gateway's response cache may keep, by subgraph, for the products. */
export const cachePoliciesOf = (products: readonly ProductName[]): Record<string, SubgraphCachePolicy> =>
  Object.assign({}, ...inOrder(products).map((p) => PRODUCTS[p].cache)) as Record<string, SubgraphCachePolicy>;

/** The product a subgraph belongs to. */
export function productOf(subgraph: string): ProductName {
  const product = PRODUCT_NAMES.find((p) => (PRODUCTS[p].subgraphs as readonly string[]).includes(subgraph));
  if (!product) throw new Error(`no product has a subgraph named ${subgraph}`);
  return product;
}

/** A subgraph's folder from the repository root (its standalone entry is `<folder>/index.ts`, built to `dist/<folder>/index.js`). */
export const subgraphFolder = (subgraph: string) => `subgraphs/${productOf(subgraph)}/${subgraph}`;

/** Default URLs in the docker-compose network (one service per subgraph). */
export const composeUrl = (name: string) => `http://${name}:4000/graphql`;

/**
 * The product sets that ship with a composed supergraph of their own (schema/, drift-checked): the
 * vendor's whole system, the finance node alone (what customers self-host) and the vendor's two
 * products without it. Any other set runs in one process, which composes at start.
 */
export const SHIPPED_SETS: readonly (readonly ProductName[])[] = [PRODUCT_NAMES, ['finance'], ['predictions', 'registry']];

/** The committed supergraph of a product set: `schema/supergraph.graphql` for all three, else `schema/supergraph.<products>.graphql`. */
export function supergraphFile(products: readonly ProductName[]): string {
  const set = inOrder(products);
  return set.length === PRODUCT_NAMES.length ? 'schema/supergraph.graphql' : `schema/supergraph.${set.join('+')}.graphql`;
}
