import { NODE_TOKEN_CHALLENGE } from '../../subgraphs/finance/identity/credential';
import { DRF_CATALOGUE, type ErrorCatalogue } from '../core/errors';
import { INVESTING_ERRORS } from './routes/investing';

const BEARER = { 'www-authenticate': NODE_TOKEN_CHALLENGE };

/** The finance node's labels (DRF / SimpleJWT style): body {"detail", "code"} plus the listed fields. */
export const financeErrors: ErrorCatalogue = {
  ...DRF_CATALOGUE,
  UNAUTHENTICATED: { code: 'not_authenticated', headers: BEARER },
  INVALID_CREDENTIALS: { code: 'token_not_valid', headers: BEARER },
  NO_ACTIVE_ACCOUNT: { code: 'no_active_account' },
  RATE_LIMITED: { code: 'throttled' },
  MAINTENANCE: { code: 'maintenance', fields: ['maintenance'] },
  LICENCE_READ_ONLY: { code: 'licence_read_only', fields: ['checks'] },
  LICENCE_INVALID: { code: 'licence_invalid', fields: ['checks'] },
  MODULE_DISABLED: { code: 'module_disabled', fields: ['module'] },
  KYC_REQUIRED: { code: 'kyc_required', fields: ['required', 'level'] },
  RECIPIENT_NOT_FOUND: { code: 'recipient_not_found' },
  QUOTE_NOT_FOUND: { code: 'quote_not_found' },
  QUOTE_EXPIRED: { code: 'quote_expired' },
  QUOTE_USED: { code: 'quote_used' },
  RATES_UNAVAILABLE: { code: 'rates_unavailable' },
  LIMIT_EXCEEDED: { code: 'limit_exceeded', fields: ['limit', 'currency', 'remaining', 'period'] },
  IDEMPOTENCY_IN_FLIGHT: { code: 'idempotency_in_flight' },
  IDEMPOTENCY_KEY_REUSED: { code: 'idempotency_key_reused' },
  OTP_REQUIRED: { code: 'otp_required' },
  OTP_INVALID: { code: 'otp_invalid' },
  OTP_ENROLMENT_REQUIRED: { code: 'otp_enrolment_required', fields: ['enrolment_token', 'expires_in'] },
  IMPROPERLY_CONFIGURED: { code: 'improperly_configured' },
  ASSISTANT_UNAVAILABLE: { code: 'assistant_unavailable' },
  KYC_INVALID_STATE: { code: 'kyc_invalid_state', fields: ['state'] },
  KYC_VERIFICATION_EXISTS: { code: 'kyc_verification_exists', fields: ['state', 'id'] },
  KYC_BASIC_REQUIRED: { code: 'kyc_basic_required', fields: ['state'] },
  KYC_PROVIDER_UNAVAILABLE: { code: 'kyc_provider_unavailable' },
  WEBHOOK_SIGNATURE_INVALID: { code: 'webhook_signature_invalid' },
  INSUFFICIENT_FUNDS: { code: 'insufficient_funds' },
  VIRTUAL_ACCOUNT_EXISTS: { code: 'virtual_account_exists' },
  PROVIDER_UNAVAILABLE: { code: 'provider_unavailable' },
  TRANSFER_NOT_PENDING: { code: 'transfer_not_pending' },
  PROVIDER_REJECTED: { code: 'provider_rejected' },
  // a movement beyond the ledger's maximum (MAX_AMOUNT_MINOR) or beyond what an account's sums hold
  AMOUNT_TOO_LARGE: { code: 'amount_too_large' },
  // the object store cannot be written (read-only, full): 503 with Retry-After
  STORAGE_UNAVAILABLE: { code: 'storage_unavailable' },
  INVALID_STATE: { code: 'invalid_state', fields: ['status'] },
  OUT_OF_STOCK: { code: 'out_of_stock', fields: ['available'] },
  PRICE_CHANGED: { code: 'price_changed', fields: ['price'] },
  CURRENCY_MISMATCH: { code: 'currency_mismatch' },
  CART_EMPTY: { code: 'cart_empty' },
  PRODUCT_UNAVAILABLE: { code: 'product_unavailable' },
  INSUFFICIENT_POINTS: { code: 'insufficient_points' },
  DISPUTE_EXISTS: { code: 'dispute_exists' },
  ALREADY_REFUNDED: { code: 'already_refunded' },
  REFERRAL_TOO_LATE: { code: 'referral_too_late' },
  ALREADY_REFERRED: { code: 'already_referred' },
  ...INVESTING_ERRORS,
};
