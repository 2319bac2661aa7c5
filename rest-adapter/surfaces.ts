import type { Config } from '../lib/config';
import type { Surface } from './core/surface';
import { financeSurface } from './finance';
import { predictionSurface } from './predictions';
import { registrySurface } from './registry';

/** The REST surfaces, each with the setting that names its port. */
export const SURFACES: { surface: Surface; port: (c: Config) => number }[] = [
  { surface: predictionSurface, port: (c) => c.PREDICTIONS_PORT },
  { surface: registrySurface, port: (c) => c.REGISTRY_PORT },
  { surface: financeSurface, port: (c) => c.PORT },
];
