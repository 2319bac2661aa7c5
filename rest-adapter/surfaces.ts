import type { Config } from '../lib/config';
import type { Surface } from './core/surface';
import { financeSurface } from './finance';
import { predictionSurface } from './predictions';
import { registrySurface } from './registry';

/** The REST surfaces by name, each with the setting that names its port. One line each. */
export const SURFACES = {
  predictions: { surface: predictionSurface, port: (c: Config) => c.PREDICTIONS_PORT },
  registry: { surface: registrySurface, port: (c: Config) => c.REGISTRY_PORT },
  finance: { surface: financeSurface, port: (c: Config) => c.PORT },
} satisfies Record<string, { surface: Surface; port: (c: Config) => number }>;

export type SurfaceName = keyof typeof SURFACES;

/** The surfaces of the products given (every surface by default). */
export const surfaceEntries = (products: readonly string[] = Object.keys(SURFACES)) =>
  (Object.entries(SURFACES) as [SurfaceName, (typeof SURFACES)[SurfaceName]][]).filter(([name]) => products.includes(name));
