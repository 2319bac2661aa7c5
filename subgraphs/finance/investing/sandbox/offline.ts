import { isDevelopment, type Config } from '../../../../lib/config';
import type { Brokerages, BrokerageSettings } from '../domain/providers';
import { DEMO_EQUITIES } from './fixture';
import { startAlpacaSandbox, type AlpacaSandbox } from './servers';

/**
 * Whether this process trades against the offline brokerage: development (or tests) with no brokerage
 * configured in the environment (no Trading API URL, no key pair). One rule for every process that
 * uses the investing services — the node of `npm start` and the CLI's commands — so that
 * `finance:sync-instruments` and `finance:refresh-prices` read the provider the node trades against.
 */
export const usesOfflineBrokerage = (config: Pick<Config, 'NODE_ENV'> & Pick<BrokerageSettings, 'BROKERAGE_TRADING_URL' | 'BROKERAGE_API_KEY_ID'>) =>
  isDevelopment(config) && !config.BROKERAGE_TRADING_URL && !config.BROKERAGE_API_KEY_ID;

/**
 * Starts the offline brokerage (a local Alpaca-compatible server with the bundled fixture of US
 * equities, orders filled at once) and points the equities brokerage and market data at it. Each
 * process runs its own: the fixture is the same, so its instruments and prices are the node's.
 */
export async function startOfflineBrokerage(brokerages: Brokerages): Promise<AlpacaSandbox> {
  const sandbox = await startAlpacaSandbox({
    assets: DEMO_EQUITIES,
    quotes: Object.fromEntries(DEMO_EQUITIES.map((e) => [e.symbol, { bid: e.bid, ask: e.ask }])),
    autoFill: true,
  });
  sandbox.server.unref();
  brokerages.useSandbox(sandbox.url);
  return sandbox;
}
