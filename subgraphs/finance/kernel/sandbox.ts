import { isDevelopment, type Config } from '../../../lib/config';
import { DomainError } from '../../../lib/errors';

/**
 * The finance node's offline sandbox providers: each answers without a real counterparty (any user
 * verifies themselves, cards and crypto deposits appear from nothing). In production
 * (NODE_ENV=production) none is active unless ALLOW_SANDBOX_PROVIDERS names it (or `all`): a
 * disabled one answers every call with 503 `SANDBOX_PROVIDER_DISABLED`, and the node's system checks
 * report each sandbox provider active (app.W011) or disabled (app.E009) in production.
 */
export const SANDBOX_PROVIDERS = {
  kyc: 'KYC (identity verification): KYC_PROVIDER=sandbox',
  banking: 'banking rails, mobile money and ramps: BANKING_PROVIDER_URL unset',
  cards: 'card issuer: CARD_ISSUER_URL unset',
  crypto: 'crypto exchange: CRYPTO_EXCHANGE_URL unset',
  fx: 'FX rates: FX_RATES_URL unset',
  sms: 'SMS (phone verification codes): SMS_PROVIDER_URL unset',
} as const;
export type SandboxProvider = keyof typeof SANDBOX_PROVIDERS;

type SandboxConfig = Pick<
  Config,
  | 'NODE_ENV'
  | 'ALLOW_SANDBOX_PROVIDERS'
  | 'KYC_PROVIDER'
  | 'BANKING_PROVIDER_URL'
  | 'CARD_ISSUER_URL'
  | 'CRYPTO_EXCHANGE_URL'
  | 'FX_RATES_URL'
  | 'SMS_PROVIDER_URL'
>;

/** The providers this configuration leaves to their sandbox. */
export function sandboxProvidersSelected(config: SandboxConfig): SandboxProvider[] {
  const selected: Record<SandboxProvider, boolean> = {
    kyc: config.KYC_PROVIDER === 'sandbox',
    banking: !config.BANKING_PROVIDER_URL,
    cards: !config.CARD_ISSUER_URL,
    crypto: !config.CRYPTO_EXCHANGE_URL,
    fx: !config.FX_RATES_URL,
    sms: !config.SMS_PROVIDER_URL,
  };
  return (Object.keys(selected) as SandboxProvider[]).filter((p) => selected[p]);
}

/** Whether the sandbox of `provider` may run: always in development and tests; in production only when ALLOW_SANDBOX_PROVIDERS names it. */
export const sandboxAllowed = (config: Pick<Config, 'NODE_ENV' | 'ALLOW_SANDBOX_PROVIDERS'>, provider: SandboxProvider) =>
  isDevelopment(config) || config.ALLOW_SANDBOX_PROVIDERS.includes(provider) || config.ALLOW_SANDBOX_PROVIDERS.includes('all');

export const sandboxDisabled = (provider: SandboxProvider) =>
  new DomainError(
    'SANDBOX_PROVIDER_DISABLED',
    503,
    `The ${provider} provider is not configured, and its offline sandbox is disabled in production (${SANDBOX_PROVIDERS[provider]}). Configure the provider, or set ALLOW_SANDBOX_PROVIDERS=${provider} to run the sandbox on purpose.`,
  );

/**
 * The sandbox of `provider` when allowed, else a stand-in whose every method throws 503
 * SANDBOX_PROVIDER_DISABLED (its `name` is `disabled`).
 */
export function sandboxOrDisabled<T extends object>(
  config: Pick<Config, 'NODE_ENV' | 'ALLOW_SANDBOX_PROVIDERS'>,
  provider: SandboxProvider,
  sandbox: () => T,
): T {
  if (sandboxAllowed(config, provider)) return sandbox();
  return new Proxy({} as T, {
    get(_target, prop) {
      if (prop === 'name') return 'disabled';
      // not a promise, not iterable, no conversions: only its methods, and each refuses
      if (typeof prop === 'symbol' || prop === 'then' || prop === 'toJSON') return undefined;
      return () => {
        throw sandboxDisabled(provider);
      };
    },
  });
}
