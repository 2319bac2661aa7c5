import type { Config } from '../lib/config';
import type { Surface } from './core/surface';

/* eslint-disable @typescript-eslint/no-require-imports -- synchronous and on demand (import() does not run under jest's CommonJS) */
/**
 * The REST surfaces by name, each with the setting that names its port. One line each. A surface's code
 * (its routes, pages and what they load) loads when its `surface` is first read: a process loads the
 * surfaces of the products it runs only (`PRODUCTS=finance` loads neither the prediction API's nor the registry's).
 */
export const SURFACES = {
  predictions: {
    get surface(): Surface {
      return (require('./predictions') as typeof import('./predictions')).predictionSurface;
    },
    port: (c: Config) => c.PREDICTIONS_PORT,
  },
  registry: {
    get surface(): Surface {
      return (require('./registry') as typeof import('./registry')).registrySurface;
    },
    port: (c: Config) => c.REGISTRY_PORT,
  },
  finance: {
    get surface(): Surface {
      return (require('./finance') as typeof import('./finance')).financeSurface;
    },
    port: (c: Config) => c.PORT,
  },
} satisfies Record<string, { surface: Surface; port: (c: Config) => number }>;
/* eslint-enable @typescript-eslint/no-require-imports */

export type SurfaceName = keyof typeof SURFACES;

/** The surfaces of the products given (every surface by default). */
export const surfaceEntries = (products: readonly string[] = Object.keys(SURFACES)) =>
  (Object.entries(SURFACES) as [SurfaceName, (typeof SURFACES)[SurfaceName]][]).filter(([name]) => products.includes(name));
