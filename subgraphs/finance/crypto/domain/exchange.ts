import { createHash } from 'node:crypto';
import Decimal from 'decimal.js';
import { DomainError } from '../../../../lib/errors';
import { fixedSecret, ProviderClient, ProviderRejected, type SecretSource } from '../../kernel/provider-http';
import { NETWORKS, type CryptoAsset } from '../vocabulary';

export interface DepositAddress {
  providerAddressId: string;
  address: string;
  network: string;
}

/**
 * The third-party exchange (Coinbase-shaped): deposit addresses per asset, rates for swaps, and
 * confirmed deposits announced by a signed webhook (`deposit.confirmed`). `name` is the `<provider>`
 * of the webhook path.
 */
export interface CryptoExchange {
  readonly name: string;
  readonly webhookSecret: SecretSource;
  createDepositAddress(input: { asset: CryptoAsset; reference: string }): Promise<DepositAddress>;
  /** Units of `to` one unit of `from` buys, as a decimal string. */
  rate(from: CryptoAsset, to: CryptoAsset): Promise<string>;
}

const providerRejected = (message: string) => new DomainError('PROVIDER_REJECTED', 502, message);

/** Reference prices of the offline sandbox, in US dollars. */
const SANDBOX_PRICES: Record<CryptoAsset, string> = { BTC: '60000', ETH: '3000', USDC: '1', USDT: '1' };

/** The offline exchange of `npm start` and the demo: deterministic addresses, fixed reference prices. */
export class SandboxExchange implements CryptoExchange {
  readonly name = 'sandbox';

  readonly webhookSecret: SecretSource;

  constructor(webhookSecret: string) {
    this.webhookSecret = fixedSecret(webhookSecret);
  }

  async createDepositAddress(input: { asset: CryptoAsset; reference: string }): Promise<DepositAddress> {
    const digest = createHash('sha256').update(`sandbox-address:${input.reference}`).digest('hex');
    const address = NETWORKS[input.asset] === 'bitcoin' ? `tb1q${digest.slice(0, 38)}` : `0x${digest.slice(0, 40)}`;
    return { providerAddressId: `addr_${digest.slice(40, 56)}`, address, network: NETWORKS[input.asset] };
  }

  async rate(from: CryptoAsset, to: CryptoAsset): Promise<string> {
    return new Decimal(SANDBOX_PRICES[from]).div(SANDBOX_PRICES[to]).toDecimalPlaces(12, Decimal.ROUND_DOWN).toFixed();
  }
}

/** A real exchange over HTTP (CRYPTO_EXCHANGE_URL): bearer API key, Idempotency-Key on writes, timeouts and retries. */
export class HttpExchange implements CryptoExchange {
  readonly name = 'exchange';
  readonly webhookSecret: SecretSource;
  private readonly client: ProviderClient;

  constructor(opts: { baseUrl: string; apiKey: SecretSource; webhookSecret: SecretSource; timeoutMs?: number; attempts?: number; backoffMs?: number }) {
    this.client = new ProviderClient({ provider: 'crypto exchange', ...opts });
    this.webhookSecret = opts.webhookSecret;
  }

  async createDepositAddress(input: { asset: CryptoAsset; reference: string }): Promise<DepositAddress> {
    const body = await this.call(() =>
      this.client.request<{ id: string; address: string; network: string }>('POST', '/v1/deposit-addresses', { asset: input.asset }, input.reference),
    );
    if (!body?.id || !body.address) throw providerRejected('The crypto exchange answered without an address.');
    return { providerAddressId: body.id, address: body.address, network: body.network ?? NETWORKS[input.asset] };
  }

  async rate(from: CryptoAsset, to: CryptoAsset): Promise<string> {
    const body = await this.call(() => this.client.request<{ rate: string }>('GET', `/v1/rates?from=${from}&to=${to}`));
    if (typeof body?.rate !== 'string' || !/^\d+(\.\d+)?$/.test(body.rate) || new Decimal(body.rate).lte(0)) {
      throw providerRejected('The crypto exchange answered an unusable rate.');
    }
    return body.rate;
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof ProviderRejected) throw providerRejected(`The crypto exchange refused the request (${err.status}).`);
      throw err;
    }
  }
}
