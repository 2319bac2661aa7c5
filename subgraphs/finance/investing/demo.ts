import type { Config } from '../../../lib/config';
import { toMoney } from '../kernel/currencies';
import type { IdentityServices } from '../identity/services';
import type { LedgerServices } from '../ledger/services';
import { DEMO_EQUITIES } from './sandbox/fixture';
import { startOfflineBrokerage, usesOfflineBrokerage } from './sandbox/offline';
import type { InvestingServices } from './services';

/** The demo user's USD, funded once by a fixed transfer id (idempotent across restarts). */
const DEMO_USD = { amount: 50_000n, transferId: 'd0e0f0a0-0000-4000-8000-00000000e0a1' };

/**
 * `npm start` in development: without brokerage settings the node trades against the local Alpaca
 * sandbox (the bundled fixture, filled at once, offline), its instruments are synced and priced, and
 * the demo user gets USD and basic KYC so that buying a fractional share by notional works at once.
 * Returns the lines the start banner shows.
 */
export async function investingDemo(
  config: Config,
  services: { investing: InvestingServices; identity: IdentityServices; ledger: LedgerServices },
  username: string,
): Promise<string[]> {
  const lines: string[] = [];
  if (usesOfflineBrokerage(config)) {
    const sandbox = await startOfflineBrokerage(services.investing.brokerages);
    services.investing.orderUpdates.reconnect();
    lines.push(`  Brokerage sandbox   ${sandbox.url}   (offline Alpaca-compatible paper trading, ${DEMO_EQUITIES.length} US equities)`);
  }
  await services.investing.investing.syncInstruments({ provider: 'equities', trigger: 'demo' });
  await services.investing.investing.refreshPrices('demo');
  const user = await services.identity.identity.findUser(username);
  if (user) {
    await services.ledger.ledger.fund(user.id, 'USD', DEMO_USD.amount, DEMO_USD.transferId, 'demo_funding');
    if (user.kycLevel === 'none') await services.identity.identity.setKycLevel(user.id, 'basic');
    lines.push(
      `  Investing           ${username} holds USD ${toMoney(DEMO_USD.amount, 'USD').amount} and basic KYC: try POST /api/v1/orders/ {"symbol": "AAPL", "side": "buy", "notional": "25"}`,
    );
  }
  return lines;
}
