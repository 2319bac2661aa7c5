import { LICENCE_CHALLENGE } from '../../subgraphs/registry/licensing/credential';
import type { ErrorCatalogue } from '../core/errors';

const CHALLENGE = { 'www-authenticate': LICENCE_CHALLENGE };

/**
 * The registry's labels are the GraphQL codes themselves, except the contract's UNAUTHORIZED for a
 * missing or malformed licence key, and INVALID for every 400 (the core's label for bad input).
 * FORBIDDEN and NODE_LIMIT_EXCEEDED show their details (the reason, the cap).
 */
export const registryErrors: ErrorCatalogue = {
  UNAUTHENTICATED: { code: 'UNAUTHORIZED', headers: CHALLENGE, message: 'Licence key required: send it in the x-license-key header (or ?licenseKey=).' },
  INVALID_CREDENTIALS: { code: 'UNAUTHORIZED', headers: CHALLENGE },
  BAD_USER_INPUT: { code: 'INVALID' },
  FORBIDDEN: { code: 'FORBIDDEN', details: true },
  NODE_LIMIT_EXCEEDED: { code: 'NODE_LIMIT_EXCEEDED', details: true },
};
