import { isAbsolute, join } from 'node:path';
import type { Config } from '../../../../../lib/config';
import { DomainError } from '../../../../../lib/errors';
import { projectRoot } from '../../../../../lib/paths';
import type { ProviderSecrets } from '../../../kernel/provider-secrets';
import { providerCredential } from '../../../kernel/provider-credentials';
import { ALPACA_LIVE_URL, ALPACA_PAPER_URL, AlpacaBrokerage, MarketDataProvider, type AlpacaCredentials } from './alpaca';
import type { TradeStreamTarget } from './alpaca-stream';
import { DexBrokerage, loadRegistry, type RegistryLoad } from './dex';
import type { Brokerage } from './types';

export type BrokerageSettings = Pick<
  Config,
  | 'BROKERAGE_API_KEY_ID'
  | 'BROKERAGE_API_SECRET_KEY'
  | 'BROKERAGE_LIVE'
  | 'BROKERAGE_TRADING_URL'
  | 'BROKERAGE_DATA_URL'
  | 'MARKET_DATA_URL'
  | 'DEX_HORIZON_URL'
  | 'DEX_REGISTRY_FILE'
>;

/** The equities brokerage's (and market data's) key pair: BROKERAGE_API_KEY_ID / BROKERAGE_API_SECRET_KEY, else the admin console's records. */
export const BROKERAGE_CREDENTIALS = {
  keyId: providerCredential('equities_brokerage', 'key_id'),
  secretKey: providerCredential('equities_brokerage', 'secret_key'),
};

/** The three provider kinds, built once from the settings; `provider(kind)` answers the one the settings record selects. */
export class Brokerages {
  private registryLoad: RegistryLoad | undefined;
  private readonly byKind: Record<string, Brokerage>;
  /** The equities brokerage's Trading API as last built (the sandbox replaces it). */
  private tradingUrl: string | undefined;

  constructor(
    private readonly config: BrokerageSettings,
    private readonly secrets: ProviderSecrets,
  ) {
    this.byKind = this.build(config);
  }

  /** The offline demo: the equities brokerage and the market-data provider become the local sandbox at `url`. */
  useSandbox(url: string): void {
    Object.assign(this.byKind, this.build({ ...this.config, BROKERAGE_TRADING_URL: url, BROKERAGE_DATA_URL: url, MARKET_DATA_URL: url }));
  }

  /**
   * The equities brokerage's trading stream: the Trading API's host at `/stream` (wss for https), with
   * its key pair. Alpaca's own hosts refuse a stream without keys, so there it waits for a pair (null);
   * an Alpaca-compatible server named by BROKERAGE_TRADING_URL is tried with or without one.
   */
  async tradeStream(): Promise<TradeStreamTarget> {
    const credentials = await this.credentials();
    if (!credentials && !this.tradingUrl) return null;
    const url = new URL(this.tradingUrl ?? (this.config.BROKERAGE_LIVE ? ALPACA_LIVE_URL : ALPACA_PAPER_URL));
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.pathname = `${url.pathname.replace(/\/$/, '')}/stream`;
    return { url: url.toString(), credentials };
  }

  /** The equities brokerage's (and market data's) key pair: the environment's pair, else the admin console's records. */
  private credentials(): Promise<AlpacaCredentials | undefined> {
    return this.secrets.all(BROKERAGE_CREDENTIALS);
  }

  private build(config: BrokerageSettings): Record<string, Brokerage> {
    this.tradingUrl = config.BROKERAGE_TRADING_URL;
    // asked at each call: the environment's pair, else the admin console's records
    const credentials = () => this.credentials();
    const liveCredentials = async () => {
      const c = await credentials();
      // live trading is explicit: the setting and both keys
      if (config.BROKERAGE_LIVE && !c)
        throw new DomainError(
          'IMPROPERLY_CONFIGURED',
          503,
          "Live trading (BROKERAGE_LIVE) needs BROKERAGE_API_KEY_ID and BROKERAGE_API_SECRET_KEY, or the admin console's equities_brokerage/key_id and secret_key.",
        );
      return c;
    };
    return {
      equities_brokerage: new AlpacaBrokerage({
        tradingUrl: config.BROKERAGE_TRADING_URL ?? (config.BROKERAGE_LIVE ? ALPACA_LIVE_URL : ALPACA_PAPER_URL),
        dataUrl: config.BROKERAGE_DATA_URL,
        credentials: liveCredentials,
      }),
      decentralized_exchange: new DexBrokerage({ horizonUrl: config.DEX_HORIZON_URL, registry: () => this.registry() }),
      market_data: new MarketDataProvider({ dataUrl: config.MARKET_DATA_URL, credentials }),
    };
  }

  provider = (kind: string): Brokerage => {
    const p = this.byKind[kind];
    if (!p) throw new DomainError('IMPROPERLY_CONFIGURED', 503, `Unknown brokerage provider "${kind}".`);
    return p;
  };

  /** The registry file, read once (and again after `reloadRegistry`); its warnings are kept for the admin console. */
  registry(): RegistryLoad {
    this.registryLoad ??= loadRegistry(this.registryPath());
    return this.registryLoad;
  }

  reloadRegistry(): RegistryLoad {
    this.registryLoad = undefined;
    return this.registry();
  }

  registryPath(): string {
    const file = this.config.DEX_REGISTRY_FILE;
    return isAbsolute(file) ? file : join(projectRoot(), file);
  }
}
