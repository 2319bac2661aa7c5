import { API_KEY_CHALLENGE } from '../../subgraphs/predictions/access/credential';
import { DRF_CATALOGUE, type ErrorCatalogue } from '../core/errors';

const BEARER = { 'www-authenticate': API_KEY_CHALLENGE };

/** The prediction API's labels: body {"detail", "code"}; 401s carry WWW-Authenticate. */
export const predictionErrors: ErrorCatalogue = {
  ...DRF_CATALOGUE,
  UNAUTHENTICATED: { code: 'not_authenticated', headers: BEARER },
  INVALID_CREDENTIALS: { code: 'authentication_failed', headers: BEARER },
  MODEL_NOT_READY: { code: 'model_not_ready', headers: { 'retry-after': '30' } },
};
