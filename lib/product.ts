import type { SubgraphCachePolicy } from './cache-policy';
import type { CredentialKind } from './credentials';
import type { ProductSettings } from './settings';

/**
 * What a product declares about itself without loading its code: the names of its subgraphs (in start
 * order), the credential kinds they verify, what the gateway's response cache may keep of their
 * answers and the settings it reads. The gateway reads only this; the processes that run a product load its subgraphs.
 */
export interface ProductManifest<N extends string = string> {
  name: N;
  subgraphs: readonly string[];
  /** In the order the gateway tries them on a shared source. */
  credentials: readonly CredentialKind[];
  /** By subgraph name; a subgraph absent here keeps nothing in the cache. */
  cache: Readonly<Record<string, SubgraphCachePolicy>>;
  /** What it reads from the environment (subgraphs/<product>/settings.ts); lib/config.ts composes them with the platform's. */
  settings: ProductSettings;
}
