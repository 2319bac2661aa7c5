import type { SubgraphCachePolicy } from './cache-policy';
import type { Config } from './config';
import type { CredentialKind } from './credentials';
import type { Logger } from './logger';
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
  /**
   * The product's part of `npm start` beyond its subgraphs and REST surface (its demo seed, its own
   * processes, its banner lines), loaded on demand by a require: a manifest loads no code.
   */
  start?: () => ProductStart;
}

/** The running process as a product's start sees it (bin/app.ts's App, seen from lib/). */
export interface RunningProducts {
  /** The products this process runs. */
  products: readonly string[];
  /** The gateway (its type is the gateway's: lib/ does not know it). */
  gateway: unknown;
  /** The gateway's and each running product's REST surface's base URL, by name. */
  urls: Readonly<Record<string, string>>;
  /** Each running subgraph's domain services, by subgraph name. */
  services: Readonly<Record<string, unknown>>;
  /** Credentials generated during this start (shown once). */
  generatedCredentials: Readonly<Record<string, string>>;
}

export interface ProductStartContext {
  config: Config;
  logger: Logger;
  app: RunningProducts;
  /** When the process started (the banner waits for what began since). */
  started: Date;
  /**
   * What the products that started before this one offer the products beside them in this process (the
   * registry its signing key and demo licence key, which the demo finance node activates with): one
   * product never loads another's code, so they meet here, by name.
   */
  offers: Map<string, string>;
}

/** A product's part of the start banner, and what stops the processes it started. */
export interface StartedProduct {
  lines: string[];
  /** Lines of the banner's demo credentials block (development). */
  credentials?: string[];
  /** Lines of the banner's "Try:" block. */
  tries?: string[];
  /** Stops what the product started (before the subgraphs and the gateway stop). */
  stop?: () => Promise<void>;
}

export interface ProductStart {
  /** Refuses, before anything starts, a configuration the product cannot start with (throws a ConfigError). */
  check?: (config: Config) => void;
  start: (ctx: ProductStartContext) => Promise<StartedProduct>;
}
