import type { SandboxAsset } from './servers';

/** The offline demo's US equities and their quotes (bid, ask in USD): a bundled fixture, no network. */
export const DEMO_EQUITIES: (SandboxAsset & { bid: string; ask: string })[] = [
  { symbol: 'AAPL', name: 'Apple Inc. Common Stock', bid: '229.80', ask: '230.10' },
  { symbol: 'MSFT', name: 'Microsoft Corporation Common Stock', bid: '415.20', ask: '415.60' },
  { symbol: 'NVDA', name: 'NVIDIA Corporation Common Stock', bid: '131.40', ask: '131.55' },
  { symbol: 'AMZN', name: 'Amazon.com, Inc. Common Stock', bid: '201.10', ask: '201.35' },
  { symbol: 'GOOGL', name: 'Alphabet Inc. Class A Common Stock', bid: '176.50', ask: '176.70' },
  { symbol: 'TSLA', name: 'Tesla, Inc. Common Stock', bid: '251.00', ask: '251.40' },
  { symbol: 'META', name: 'Meta Platforms, Inc. Class A Common Stock', bid: '572.30', ask: '572.90' },
  { symbol: 'BRK.A', name: 'Berkshire Hathaway Inc. Class A', bid: '690100.00', ask: '691500.00', fractionable: false },
  { symbol: 'KO', name: 'The Coca-Cola Company Common Stock', bid: '62.10', ask: '62.14' },
  { symbol: 'VOO', name: 'Vanguard S&P 500 ETF', bid: '535.70', ask: '535.95' },
];
