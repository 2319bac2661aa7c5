/**
 * The provider credentials the finance modules read: each one from its environment variable when
 * that is set, else from the admin console's encrypted record `provider`/`name` (subgraphs/finance/kernel/provider-secrets).
 * The node subgraph hands a record's secret only to the service that owns the provider
 * (`PROVIDER_READERS`, least privilege: the card module cannot read the brokerage's keys). The admin
 * console's credential page and the README list this table.
 */
export interface ProviderCredential {
  /** The subgraph (service principal) that uses it. */
  service: string;
  provider: string;
  name: string;
  /** The environment variable that, when set, wins over the console's record. */
  env: string;
  use: string;
}

export const PROVIDER_CREDENTIALS = [
  {
    service: 'banking',
    provider: 'banking',
    name: 'api_key',
    env: 'BANKING_PROVIDER_API_KEY',
    use: 'Bearer key of the banking rail, mobile money and ramp API',
  },
  {
    service: 'banking',
    provider: 'banking',
    name: 'webhook_secret',
    env: 'BANKING_WEBHOOK_SECRET',
    use: 'Signs requests to the banking provider and verifies its webhooks',
  },
  { service: 'cards', provider: 'card_issuer', name: 'api_key', env: 'CARD_ISSUER_API_KEY', use: "Bearer key of the card issuer's API" },
  { service: 'cards', provider: 'card_issuer', name: 'webhook_secret', env: 'CARD_ISSUER_WEBHOOK_SECRET', use: "Verifies the card issuer's webhooks" },
  { service: 'crypto', provider: 'crypto_exchange', name: 'api_key', env: 'CRYPTO_EXCHANGE_API_KEY', use: "Bearer key of the crypto exchange's API" },
  {
    service: 'crypto',
    provider: 'crypto_exchange',
    name: 'webhook_secret',
    env: 'CRYPTO_EXCHANGE_WEBHOOK_SECRET',
    use: "Verifies the crypto exchange's webhooks",
  },
  { service: 'investing', provider: 'equities_brokerage', name: 'key_id', env: 'BROKERAGE_API_KEY_ID', use: 'Equities brokerage and market data: API key id' },
  {
    service: 'investing',
    provider: 'equities_brokerage',
    name: 'secret_key',
    env: 'BROKERAGE_API_SECRET_KEY',
    use: 'Equities brokerage and market data: API secret key',
  },
  { service: 'compliance', provider: 'kyc', name: 'app_token', env: 'KYC_PROVIDER_APP_TOKEN', use: 'Identity verification (Sumsub protocol): app token' },
  { service: 'compliance', provider: 'kyc', name: 'secret_key', env: 'KYC_PROVIDER_SECRET_KEY', use: 'Identity verification: request-signing secret' },
  { service: 'compliance', provider: 'kyc', name: 'webhook_secret', env: 'KYC_WEBHOOK_SECRET', use: "Verifies the identity provider's webhooks" },
  { service: 'node', provider: 'assistant', name: 'api_key', env: 'ASSISTANT_API_KEY', use: "The assistant's language-model provider key" },
] as const satisfies readonly ProviderCredential[];

export type KnownProviderCredential = (typeof PROVIDER_CREDENTIALS)[number];

/** The catalogue entry of `provider`/`name` (a typo is a compile error). */
export function providerCredential<P extends KnownProviderCredential['provider'], N extends Extract<KnownProviderCredential, { provider: P }>['name']>(
  provider: P,
  name: N,
): ProviderCredential {
  return PROVIDER_CREDENTIALS.find((c) => c.provider === provider && c.name === name)!;
}

/** Which providers' records each service principal may read (the node reads its own in-process). */
export const PROVIDER_READERS: Readonly<Record<string, readonly string[]>> = PROVIDER_CREDENTIALS.reduce<Record<string, string[]>>((readers, c) => {
  const mine = (readers[c.service] ??= []);
  if (!mine.includes(c.provider)) mine.push(c.provider);
  return readers;
}, {});

export const mayReadProvider = (service: string, provider: string) => PROVIDER_READERS[service]?.includes(provider) ?? false;
