import { DRF_CATALOGUE, type ErrorCatalogue } from '../core/errors';

const BEARER = { 'www-authenticate': 'Bearer realm="api"' };

/** The prediction API's error catalogue: body {"detail", "code"}; 401s carry WWW-Authenticate. */
export const predictionErrors: ErrorCatalogue = {
  ...DRF_CATALOGUE,
  UNAUTHENTICATED: { ...DRF_CATALOGUE.UNAUTHENTICATED, headers: BEARER },
  INVALID_CREDENTIALS: { ...DRF_CATALOGUE.INVALID_CREDENTIALS, headers: BEARER },
  MODEL_NOT_READY: { status: 503, code: 'model_not_ready', headers: { 'retry-after': '30' } },
};
