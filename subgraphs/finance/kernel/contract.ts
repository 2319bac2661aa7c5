import { isDevelopment, type Config } from '../../../lib/config';
import type { FinanceModule } from './gate';

/**
 * What the finance node's contract fixes, shared by the node subgraph and the finance REST surface
 * (its admin console and CORS): the sixteen toggles of the settings record, and the seven headers
 * the clients send on every request.
 */

/** Where the development outbox is served on the finance surface (the start banner and the web client link to it). */
export const DEV_OUTBOX_PATH = '/dev/outbox/';

/** The outbox's path when this process has one (development), else null: what GET /api/v1/config/ tells clients. */
export const devOutboxPath = (config: Pick<Config, 'NODE_ENV'>) => (isDevelopment(config) ? DEV_OUTBOX_PATH : null);

/** The seven headers the web, desktop and mobile clients send on every request. */
export const CLIENT_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'X-Request-ID', 'X-Request-Timestamp', 'X-Client-Platform', 'X-Client-Version'];

/**
 * The settings record: the sixteen administrator toggles of the contract, in one row, changed only
 * from the admin console. `key` is the column and the REST name; `field` the GraphQL name.
 */
export const BROKERAGE_PROVIDERS = ['decentralized_exchange', 'equities_brokerage', 'market_data'] as const;
export type BrokerageProvider = (typeof BROKERAGE_PROVIDERS)[number];

export const BROKERAGE_LABELS: Record<BrokerageProvider, string> = {
  decentralized_exchange: 'Decentralized exchange (tokenized assets)',
  equities_brokerage: 'Equities brokerage (US equities, paper trading by default)',
  market_data: 'Market-data provider (quotes only: buy and sell fail)',
};

interface ToggleBase {
  key: string;
  field: string;
  label: string;
  controls: string;
}
export type ToggleDefinition = ToggleBase &
  (
    | { type: 'boolean'; default: boolean; module?: FinanceModule }
    | { type: 'text'; default: string; maxLength: number }
    | { type: 'choice'; default: BrokerageProvider; choices: readonly BrokerageProvider[] }
  );

export const DEFAULT_MAINTENANCE_MESSAGE = 'The service is undergoing scheduled maintenance. Please try again shortly.';

export const TOGGLES: readonly ToggleDefinition[] = [
  {
    key: 'shop_enabled',
    field: 'shopEnabled',
    label: 'Shop and utilities',
    controls: 'Products, cart, airtime, gift cards, bill payment',
    type: 'boolean',
    default: true,
    module: 'shop',
  },
  {
    key: 'investments_enabled',
    field: 'investmentsEnabled',
    label: 'Investments and stocks',
    controls: 'Tokenized stock trading, portfolios',
    type: 'boolean',
    default: true,
    module: 'investments',
  },
  {
    key: 'virtual_iban_enabled',
    field: 'virtualIbanEnabled',
    label: 'Virtual IBAN accounts (EUR/GBP)',
    controls: 'Virtual IBAN generation',
    type: 'boolean',
    default: true,
    module: 'virtual_iban',
  },
  {
    key: 'african_accounts_enabled',
    field: 'africanAccountsEnabled',
    label: 'African virtual bank accounts',
    controls: 'Virtual accounts and transfers',
    type: 'boolean',
    default: true,
    module: 'african_accounts',
  },
  {
    key: 'mobile_money_enabled',
    field: 'mobileMoneyEnabled',
    label: 'Mobile money',
    controls: 'Deposits and withdrawals',
    type: 'boolean',
    default: true,
    module: 'mobile_money',
  },
  { key: 'kyc_required', field: 'kycRequired', label: 'KYC requirements', controls: 'Identity verification enforcement', type: 'boolean', default: true },
  {
    key: 'disputes_enabled',
    field: 'disputesEnabled',
    label: 'Dispute and support system',
    controls: 'User-raised disputes',
    type: 'boolean',
    default: true,
    module: 'disputes',
  },
  {
    key: 'crypto_enabled',
    field: 'cryptoEnabled',
    label: 'Crypto deposits and swaps',
    controls: 'Flows through a third-party crypto exchange',
    type: 'boolean',
    default: true,
    module: 'crypto',
  },
  {
    key: 'fiat_ramps_enabled',
    field: 'fiatRampsEnabled',
    label: 'Fiat on/off-ramps',
    controls: 'Bank and third-party ramp transfers',
    type: 'boolean',
    default: true,
    module: 'fiat_ramps',
  },
  {
    key: 'rewards_enabled',
    field: 'rewardsEnabled',
    label: 'Points and rewards',
    controls: 'Loyalty and referrals',
    type: 'boolean',
    default: true,
    module: 'rewards',
  },
  { key: 'enforce_2fa', field: 'enforce2fa', label: 'Enforce 2FA on login', controls: 'One-time code required at sign-in', type: 'boolean', default: false },
  {
    key: 'enhanced_kyc_required',
    field: 'enhancedKycRequired',
    label: 'Enforce enhanced KYC',
    controls: 'External biometric/ID verification',
    type: 'boolean',
    default: false,
  },
  {
    key: 'maintenance_mode',
    field: 'maintenanceMode',
    label: 'Global maintenance mode',
    controls: 'Non-admin API routes go into maintenance',
    type: 'boolean',
    default: false,
  },
  {
    key: 'maintenance_message',
    field: 'maintenanceMessage',
    label: 'Maintenance notice message',
    controls: 'Banner shown while maintenance is active',
    type: 'text',
    default: DEFAULT_MAINTENANCE_MESSAGE,
    maxLength: 500,
  },
  {
    key: 'brokerage_provider',
    field: 'brokerageProvider',
    label: 'Active stock brokerage provider',
    controls: 'Selects one provider',
    type: 'choice',
    default: 'equities_brokerage',
    choices: BROKERAGE_PROVIDERS,
  },
  {
    key: 'fractional_shares_enabled',
    field: 'fractionalSharesEnabled',
    label: 'Fractional shares',
    controls: 'Whether fractional trading is allowed',
    type: 'boolean',
    default: true,
  },
];

/*
 * The rest of the finance node's public face for its REST surface and clients (they import no other
 * module of a subgraph: .dependency-cruiser.cjs `rest-bot-clients-see-public-faces`): the read-only
 * gate's exempt operations and refusal, the KYC levels, the provider credentials the console edits and
 * the size setting parser the uploads use.
 */
export { READ_ONLY_EXEMPT, readOnlyError } from './gate';
export { KYC_LEVELS } from './kyc';
export { PROVIDER_CREDENTIALS } from './provider-credentials';
export { byteLimit } from '../../../lib/bounded-body';
