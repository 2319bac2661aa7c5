import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stellarAccountId } from '../../../subgraphs/finance/investing/domain/providers/dex';
import { startAlpacaSandbox, startHorizonSandbox, type AlpacaSandbox, type HorizonSandbox } from '../../../subgraphs/finance/investing/sandbox/servers';

/** A valid Stellar account id (a random key). */
export const stellarAddress = () => stellarAccountId(randomBytes(32));

export interface Providers {
  alpaca: AlpacaSandbox;
  horizon: HorizonSandbox;
  registryFile: string;
  issuers: { TSLAX: string; USDC: string };
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The local provider servers of the investing tests: an Alpaca-compatible brokerage (AAPL, TSLA
 * fractionable, BRK.A whole shares only) that also serves the market-data provider's quotes, and a
 * Horizon order book for a registry with two good entries (TSLAX, NVDAX; NVDAX's book is empty) and
 * two skipped ones (no issuer, a malformed issuer).
 */
export async function startProviders(): Promise<Providers> {
  const alpaca = await startAlpacaSandbox({
    assets: [
      { symbol: 'AAPL', name: 'Apple Inc. Common Stock' },
      { symbol: 'TSLA', name: 'Tesla, Inc. Common Stock' },
      { symbol: 'BRK.A', name: 'Berkshire Hathaway Inc.', fractionable: false },
    ],
    quotes: {
      AAPL: { bid: '199.90', ask: '200.10' },
      TSLA: { bid: '249.00', ask: '251.00' },
      'BRK.A': { bid: '600000', ask: '600200' },
      MSFT: { bid: '410', ask: '411' },
    },
  });
  const issuers = { TSLAX: stellarAddress(), USDC: stellarAddress() };
  const horizon = await startHorizonSandbox({ [`TSLAX:${issuers.TSLAX}`]: { bids: ['250.0000000', '249.0000000'], asks: ['252.0000000'] } });
  const dir = mkdtempSync(join(tmpdir(), 'dex-registry-'));
  const registryFile = join(dir, 'registry.json');
  writeFileSync(
    registryFile,
    JSON.stringify({
      assets: [
        {
          code: 'TSLAX',
          issuer: issuers.TSLAX,
          name: 'Tokenized Tesla',
          asset_class: 'tokenized_equity',
          counter: `USDC:${issuers.USDC}`,
          quote_currency: 'USDC',
        },
        {
          code: 'NVDAX',
          issuer: stellarAddress(),
          name: 'Tokenized Nvidia',
          asset_class: 'tokenized_equity',
          counter: `USDC:${issuers.USDC}`,
          quote_currency: 'USDC',
        },
        { code: 'NOISS', name: 'No issuer' },
        { code: 'BADISS', issuer: 'GNOTANADDRESS', name: 'Malformed issuer' },
      ],
    }),
  );
  return {
    alpaca,
    horizon,
    registryFile,
    issuers,
    env: {
      BROKERAGE_TRADING_URL: alpaca.url,
      BROKERAGE_DATA_URL: alpaca.url,
      MARKET_DATA_URL: alpaca.url,
      DEX_HORIZON_URL: horizon.url,
      DEX_REGISTRY_FILE: registryFile,
    },
    close: async () => {
      await alpaca.close();
      await horizon.close();
    },
  };
}

/** Resolves once `check()` holds (asked every 50 ms); fails after `timeoutMs` naming `what`. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
