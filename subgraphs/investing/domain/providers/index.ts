import { isAbsolute, join } from 'node:path';
import type { Config } from '../../../../lib/config';
import { DomainError } from '../../../../lib/errors';
import { projectRoot } from '../../../../lib/paths';
import { ALPACA_LIVE_URL, ALPACA_PAPER_URL, AlpacaBrokerage, MarketDataProvider, type AlpacaCredentials } from './alpaca';
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

/** The three provider kinds, built once from the settings; `provider(kind)` answers the one the settings record selects. */
export class Brokerages {
  private registryLoad: RegistryLoad | undefined;
  private readonly byKind: Record<string, Brokerage>;

  constructor(private readonly config: BrokerageSettings) {
    this.byKind = this.build(config);
  }

  /** The offline demo: the equities brokerage and the market-data provider become the local sandbox at `url`. */
  useSandbox(url: string): void {
    Object.assign(this.byKind, this.build({ ...this.config, BROKERAGE_TRADING_URL: url, BROKERAGE_DATA_URL: url, MARKET_DATA_URL: url }));
  }

  private build(config: BrokerageSettings): Record<string, Brokerage> {
    const credentials = async (): Promise<AlpacaCredentials | undefined> =>
      config.BROKERAGE_API_KEY_ID && config.BROKERAGE_API_SECRET_KEY
        ? { keyId: config.BROKERAGE_API_KEY_ID, secretKey: config.BROKERAGE_API_SECRET_KEY }
        : undefined;
    const liveCredentials = async () => {
      const c = await credentials();
      // live trading is explicit: the setting and both keys
      if (config.BROKERAGE_LIVE && !c)
        throw new DomainError('IMPROPERLY_CONFIGURED', 503, 'Live trading (BROKERAGE_LIVE) needs BROKERAGE_API_KEY_ID and BROKERAGE_API_SECRET_KEY.');
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
