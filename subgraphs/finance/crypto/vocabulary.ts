import type { Money } from '../kernel/currencies';

/**
 * The crypto subgraph's published words and shapes: the domain and the REST surface's schemas and
 * admin pages share them (the REST layer reaches no domain/ module).
 */

/** The assets the node holds for users (8 decimals each in kernel/currencies.ts), with the network of their deposit addresses. Defined once. */
export const CRYPTO_ASSETS = ['BTC', 'ETH', 'USDC', 'USDT'] as const;
export type CryptoAsset = (typeof CRYPTO_ASSETS)[number];
export const NETWORKS: Record<CryptoAsset, string> = { BTC: 'bitcoin', ETH: 'ethereum', USDC: 'ethereum', USDT: 'ethereum' };

export interface AddressView {
  id: string;
  asset: string;
  network: string;
  address: string;
  createdAt: Date;
}

export interface DepositView {
  id: string;
  asset: string;
  amount: Money;
  address: string;
  txHash: string;
  status: string;
  createdAt: Date;
  creditedAt: Date | null;
}

export interface QuoteView {
  id: string;
  fromAmount: Money;
  fee: Money;
  toAmount: Money;
  rate: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface SwapView {
  id: string;
  quoteId: string;
  fromAmount: Money;
  fee: Money;
  toAmount: Money;
  rate: string;
  createdAt: Date;
}
