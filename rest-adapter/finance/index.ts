import { DRF_CATALOGUE, detailErrorShape } from '../core/errors';
import type { Surface } from '../core/surface';

/** The finance node's REST surface (port 8000, PORT). Its routes arrive with the finance issue. */
export const financeSurface: Surface = {
  product: 'finance',
  title: 'Finance Platform Node',
  version: '1.0.0',
  description: 'Self-hosted wallet, investing and shop node.',
  routes: [],
  catalogue: DRF_CATALOGUE,
  errorShape: detailErrorShape,
  cors: { origins: '*', allowHeaders: ['authorization', 'content-type', 'x-request-id'] },
};
