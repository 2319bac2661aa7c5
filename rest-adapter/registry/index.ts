import { COMMON_STATUS } from '../../lib/errors';
import { envelopeErrorShape, type ErrorCatalogue } from '../core/errors';
import type { Surface } from '../core/surface';

/** Registry labels are the GraphQL codes themselves (UNAUTHORIZED for a missing licence key, as the contract names it). */
const registryErrors: ErrorCatalogue = Object.fromEntries(
  Object.entries(COMMON_STATUS).map(([code, status]) => [code, { status, code: code === 'UNAUTHENTICATED' || code === 'INVALID_CREDENTIALS' ? 'UNAUTHORIZED' : code }]),
);

/** The licence registry's REST surface (port 8090). Its routes arrive with the registry issue. */
export const registrySurface: Surface = {
  product: 'registry',
  title: 'Licence Registry',
  version: '1.0.0',
  description: 'Licences, releases, update checks, artifact downloads and deployment nodes.',
  routes: [],
  catalogue: registryErrors,
  errorShape: envelopeErrorShape,
  cors: { origins: '*', allowHeaders: ['x-license-key', 'content-type', 'x-request-id'] },
};
