import { createHash, createHmac, randomInt } from 'node:crypto';
import { composeIban, composeNuban } from './account-numbers';
import { readJson, readText } from '../../../../lib/bounded-body';

/**
 * The external parties of the banking module, each behind a typed interface: a banking rail (issues
 * virtual accounts, sends bank transfers; credits and transfer outcomes arrive by signed webhook) and
 * a mobile-money provider shaped like MTN MoMo (request to pay, transfer; PENDING → SUCCESSFUL |
 * FAILED by callback). Two implementations each: the sandbox (offline: `npm start`, the demo, tests)
 * and the HTTP client (`HttpProviderClient`: signed requests, timeouts, retries with back-off).
 */

/** The rails: which module switches each on, which currencies it holds, the provider name on webhooks. */
export const RAILS = {
  iban: { module: 'virtual_iban', currencies: ['EUR', 'GBP'] },
  nuban: { module: 'african_accounts', currencies: ['NGN'] },
} as const;
export type Rail = keyof typeof RAILS;

export const MOBILE_MONEY_CURRENCIES = ['GHS', 'UGX', 'XOF', 'KES'] as const;

/** The providers that deliver webhooks, as they appear in `/api/v1/webhooks/banking/<provider>/`. */
export const WEBHOOK_PROVIDERS = ['iban', 'nuban', 'momo', 'ramp'] as const;
export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];

/**
 * The module (settings-record toggle) each provider's movements belong to: what a movement or an
 * account is shown under, so that a toggle switched off hides its reads as it refuses its writes.
 */
export const PROVIDER_MODULES = {
  iban: 'virtual_iban',
  nuban: 'african_accounts',
  momo: 'mobile_money',
  ramp: 'fiat_ramps',
} as const satisfies Record<WebhookProvider, (typeof RAILS)[Rail]['module'] | 'mobile_money' | 'fiat_ramps'>;

export const railOfCurrency = (currency: string): Rail | undefined =>
  (Object.keys(RAILS) as Rail[]).find((rail) => (RAILS[rail].currencies as readonly string[]).includes(currency));

export interface IssuedAccount {
  accountNumber: string;
  /** The bank's code on the rail: the sort code (GBP), the BIC's bank (EUR), the CBN code (NGN). */
  bankCode: string;
  bankName: string;
  providerReference: string;
}

export interface BankingRailProvider {
  issueAccount(request: { reference: string; currency: string; holderName: string }): Promise<IssuedAccount>;
  /** Accepted for sending; the outcome comes by webhook (transfer.succeeded | transfer.failed). */
  sendTransfer(request: { reference: string; amount: string; currency: string; bankCode: string; accountNumber: string; narration: string }): Promise<{
    providerReference: string;
  }>;
}

export type MobileMoneyStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';

export interface MobileMoneyProvider {
  /** Collections: asks the payer to approve a payment on their phone (MoMo's requesttopay). */
  requestToPay(request: { referenceId: string; amount: string; currency: string; msisdn: string; note: string }): Promise<{ status: MobileMoneyStatus }>;
  /** Disbursements: pays out to the phone's wallet (MoMo's transfer). */
  transfer(request: { referenceId: string; amount: string; currency: string; msisdn: string; note: string }): Promise<{ status: MobileMoneyStatus }>;
}

/** The fiat currencies and crypto assets a ramp converts between (a crypto balance is a ledger account in the asset, 8 decimals). */
export const RAMP_FIAT_CURRENCIES = ['EUR', 'GBP', 'USD', 'NGN'] as const;
export const RAMP_ASSETS = ['BTC', 'ETH', 'USDC', 'USDT'] as const;

export interface RampQuote {
  /** The price of one unit of the asset in the fiat currency, a decimal string. */
  price: string;
}

/**
 * A fiat on/off-ramp (a bank or a third-party ramp): quotes a price, then executes; the outcome comes
 * by webhook (ramp.completed | ramp.failed).
 */
export interface RampProvider {
  quote(request: { fiatCurrency: string; asset: string }): Promise<RampQuote>;
  execute(request: { reference: string; direction: 'on' | 'off'; fiatCurrency: string; fiatAmount: string; asset: string; assetAmount: string }): Promise<{
    providerReference: string;
  }>;
}

export interface BankingProviders {
  rails: Record<Rail, BankingRailProvider>;
  mobileMoney: MobileMoneyProvider;
  ramp: RampProvider;
}

/** A provider refused or could not be reached (after retries): the movement fails, its hold is released. */
export class ProviderError extends Error {}

/** The provider answered 4xx: a refusal of this request, which a retry would not change. */
class ProviderRefusal extends ProviderError {}

/** Digits of a reference, stable per reference: the sandbox issues the same account for a retried request. */
function digitsOf(reference: string, count: number): string {
  const hash = createHash('sha256').update(reference).digest();
  let out = '';
  for (let i = 0; out.length < count; i++) out += String(hash[i % hash.length] % 10);
  return out;
}

/** The BIC of the sandbox's EUR accounts: ISO 9362 form (bank, country, location, branch). */
export const SANDBOX_EUR_BIC = 'SNDBDEB1XXX';

/** Offline rail: valid IBANs (DE for EUR, GB for GBP) and NUBANs, transfers accepted. */
export class SandboxRail implements BankingRailProvider {
  async issueAccount({ reference, currency }: { reference: string; currency: string; holderName: string }): Promise<IssuedAccount> {
    const providerReference = `va_${digitsOf(reference, 16)}`;
    if (currency === 'GBP') {
      // GB: 4-letter bank code, 6-digit sort code, 8-digit account number
      const sortCode = '040075';
      return {
        accountNumber: composeIban('GB', `SAND${sortCode}${digitsOf(reference, 8)}`),
        bankCode: sortCode,
        bankName: 'Sandbox Bank UK',
        providerReference,
      };
    }
    if (currency === 'EUR') {
      // DE: 8-digit Bankleitzahl, 10-digit account number; shown with the bank's BIC (ISO 9362), as a real IBAN is
      const blz = '10010010';
      return {
        accountNumber: composeIban('DE', `${blz}${digitsOf(reference, 10)}`),
        bankCode: SANDBOX_EUR_BIC,
        bankName: 'Sandbox Bank EU',
        providerReference,
      };
    }
    if (currency === 'NGN') {
      const bankCode = '999240';
      return { accountNumber: composeNuban(bankCode, digitsOf(reference, 9)), bankCode, bankName: 'Sandbox Microfinance Bank', providerReference };
    }
    throw new ProviderError(`the sandbox rail holds no ${currency} accounts`);
  }

  async sendTransfer({ reference }: { reference: string }) {
    return { providerReference: `tr_${digitsOf(reference, 16)}` };
  }
}

/**
 * The test numbers of MTN MoMo's sandbox, and what the sandbox's callback says for each (E.164 of the
 * sandbox's MSISDNs 46733123450…54): FAILED, REJECTED (reported as FAILED), and the three that stay
 * PENDING (timeout, ongoing, pending: no callback). Every other number is SUCCESSFUL.
 */
export const SANDBOX_MOMO_NUMBERS: Record<string, 'FAILED' | 'PENDING'> = {
  '+46733123450': 'FAILED',
  '+46733123451': 'FAILED',
  '+46733123452': 'PENDING',
  '+46733123453': 'PENDING',
  '+46733123454': 'PENDING',
};

/** A callback as the provider sends it: to the provider's webhook path, with the raw body, its timestamp and signature. */
export type SandboxDelivery = (provider: WebhookProvider, payload: string, timestamp: string, signature: string) => Promise<unknown>;

export interface SandboxCallbacks {
  /** How long after a request its callback comes (MoMo's sandbox answers within seconds); null: never (a test plays the provider). */
  delayMs: number | null;
  /** The secret the sandbox signs with: the node's banking webhook secret. */
  secret: () => Promise<string | undefined>;
  /** Where the callback goes: the node's webhook receiver (set once the banking service exists). */
  deliver?: SandboxDelivery;
  /** A delivery that failed (logged; the movement stays pending until it expires). */
  onError?: (err: unknown) => void;
}

/** Signs and sends a provider event through the node's webhook receiver, as the provider would over HTTP. */
export async function deliverSandboxEvent(callbacks: SandboxCallbacks, provider: WebhookProvider, event: Record<string, unknown>): Promise<unknown> {
  const secret = await callbacks.secret();
  if (!secret || !callbacks.deliver) throw new ProviderError('the sandbox has no webhook secret or receiver to call back');
  const payload = JSON.stringify(event);
  const timestamp = String(Math.floor(Date.now() / 1000));
  return callbacks.deliver(provider, payload, timestamp, `v1=${signPayload(secret, timestamp, payload)}`);
}

/**
 * Offline mobile money shaped like MoMo's sandbox: every request is accepted as PENDING, and its
 * callback (SUCCESSFUL, or FAILED for the sandbox's failing test numbers) comes a moment later through
 * the node's webhook receiver, signed as the provider signs it.
 */
export class SandboxMobileMoney implements MobileMoneyProvider {
  constructor(readonly callbacks: SandboxCallbacks = { delayMs: null, secret: async () => undefined }) {}

  private accept(request: { referenceId: string; msisdn: string }) {
    const { delayMs } = this.callbacks;
    const outcome = SANDBOX_MOMO_NUMBERS[request.msisdn] ?? 'SUCCESSFUL';
    if (delayMs !== null && outcome !== 'PENDING') {
      const event = {
        id: `sandbox-${request.referenceId}-${outcome.toLowerCase()}`,
        type: 'momo.callback',
        data: { externalId: request.referenceId, status: outcome, ...(outcome === 'FAILED' ? { reason: 'PAYER_NOT_FOUND' } : {}) },
      };
      setTimeout(() => {
        deliverSandboxEvent(this.callbacks, 'momo', event).catch((err: unknown) => this.callbacks.onError?.(err));
      }, delayMs).unref();
    }
    return { status: 'PENDING' as const };
  }

  async requestToPay(request: { referenceId: string; msisdn: string }) {
    return this.accept(request);
  }

  async transfer(request: { referenceId: string; msisdn: string }) {
    return this.accept(request);
  }
}

/** Offline ramp: fixed reference prices (the demo's), every order accepted. */
const SANDBOX_PRICES: Record<string, Record<string, string>> = {
  BTC: { EUR: '60000', GBP: '51000', USD: '65000', NGN: '100000000' },
  ETH: { EUR: '3000', GBP: '2550', USD: '3250', NGN: '5000000' },
  USDC: { EUR: '0.92', GBP: '0.79', USD: '1', NGN: '1600' },
  USDT: { EUR: '0.92', GBP: '0.79', USD: '1', NGN: '1600' },
};

export class SandboxRamp implements RampProvider {
  async quote({ fiatCurrency, asset }: { fiatCurrency: string; asset: string }): Promise<RampQuote> {
    const price = SANDBOX_PRICES[asset]?.[fiatCurrency];
    if (!price) throw new ProviderError(`the sandbox ramp does not trade ${asset} for ${fiatCurrency}`);
    return { price };
  }

  async execute({ reference }: { reference: string }) {
    return { providerReference: `rmp_${digitsOf(reference, 16)}` };
  }
}

export interface BankingProviderCredentials {
  apiKey: string;
  /** Signs each request body (HMAC-SHA256 over timestamp + "." + body), as the webhooks are signed. */
  signingSecret: string;
}

export interface HttpProviderOptions {
  baseUrl: string;
  /** Asked at each request (the environment, else the admin console's records): a changed key works without a restart. */
  credentials: () => Promise<BankingProviderCredentials | undefined>;
  timeoutMs?: number;
  attempts?: number;
  fetch?: typeof fetch;
}

/**
 * The HTTP client of a provider: JSON over HTTPS, `Authorization: Bearer`, each request signed and
 * carrying our reference as its Idempotency-Key (so a retry after a timeout is never a second
 * payment), a timeout per attempt, retries with exponential back-off and jitter on network errors,
 * 429 and 5xx; a 4xx is the provider's refusal and is not retried.
 */
export class HttpProviderClient {
  constructor(private readonly options: HttpProviderOptions) {}

  async post<T>(path: string, body: Record<string, unknown>, idempotencyKey: string): Promise<T> {
    const attempts = this.options.attempts ?? 3;
    const text = JSON.stringify(body);
    const credentials = await this.options.credentials();
    if (!credentials) throw new ProviderError('the banking provider has no credentials (banking/api_key and banking/webhook_secret)');
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      try {
        const res = await (this.options.fetch ?? fetch)(new URL(path, this.options.baseUrl), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${credentials.apiKey}`,
            'idempotency-key': idempotencyKey,
            'x-banking-timestamp': timestamp,
            'x-banking-signature': `v1=${signPayload(credentials.signingSecret, timestamp, text)}`,
          },
          body: text,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        });
        if (res.ok) return await readJson<T>(res);
        const detail = await readText(res, 4096).catch(() => '');
        if (res.status !== 429 && res.status < 500) throw new ProviderRefusal(`the provider refused (${res.status}): ${detail.slice(0, 200)}`);
        lastError = new ProviderError(`the provider answered ${res.status}`);
      } catch (err) {
        if (err instanceof ProviderRefusal) throw err;
        lastError = err;
      }
      if (attempt < attempts) await new Promise((r) => setTimeout(r, 200 * 2 ** (attempt - 1) + randomInt(100)));
    }
    throw lastError instanceof ProviderError ? lastError : new ProviderError(`the provider could not be reached: ${String(lastError)}`);
  }
}

/** The rail over HTTP: POST /v1/accounts and /v1/transfers. */
export class HttpRail implements BankingRailProvider {
  constructor(private readonly client: HttpProviderClient) {}

  async issueAccount(request: { reference: string; currency: string; holderName: string }): Promise<IssuedAccount> {
    const res = await this.client.post<{ account_number: string; bank_code: string; bank_name: string; id: string }>(
      '/v1/accounts',
      { reference: request.reference, currency: request.currency, holder_name: request.holderName },
      request.reference,
    );
    return { accountNumber: res.account_number, bankCode: res.bank_code, bankName: res.bank_name, providerReference: res.id };
  }

  async sendTransfer(request: { reference: string; amount: string; currency: string; bankCode: string; accountNumber: string; narration: string }) {
    const res = await this.client.post<{ id: string }>(
      '/v1/transfers',
      {
        reference: request.reference,
        amount: request.amount,
        currency: request.currency,
        bank_code: request.bankCode,
        account_number: request.accountNumber,
        narration: request.narration,
      },
      request.reference,
    );
    return { providerReference: res.id };
  }
}

/** MTN MoMo's shape: POST /collection/v1_0/requesttopay and /disbursement/v1_0/transfer, X-Reference-Id, 202 then PENDING. */
export class HttpMobileMoney implements MobileMoneyProvider {
  constructor(private readonly client: HttpProviderClient) {}

  private async call(path: string, party: 'payer' | 'payee', request: { referenceId: string; amount: string; currency: string; msisdn: string; note: string }) {
    await this.client.post(
      path,
      {
        amount: request.amount,
        currency: request.currency,
        externalId: request.referenceId,
        [party]: { partyIdType: 'MSISDN', partyId: request.msisdn.replace(/^\+/, '') },
        payerMessage: request.note,
        payeeNote: request.note,
      },
      request.referenceId,
    );
    return { status: 'PENDING' as const };
  }

  requestToPay(request: { referenceId: string; amount: string; currency: string; msisdn: string; note: string }) {
    return this.call('/collection/v1_0/requesttopay', 'payer', request);
  }

  transfer(request: { referenceId: string; amount: string; currency: string; msisdn: string; note: string }) {
    return this.call('/disbursement/v1_0/transfer', 'payee', request);
  }
}

/** The ramp over HTTP: POST /v1/ramp/quotes and /v1/ramp/orders. */
export class HttpRamp implements RampProvider {
  constructor(private readonly client: HttpProviderClient) {}

  async quote(request: { fiatCurrency: string; asset: string }): Promise<RampQuote> {
    const res = await this.client.post<{ price: string }>(
      '/v1/ramp/quotes',
      { fiat_currency: request.fiatCurrency, asset: request.asset },
      `quote:${request.fiatCurrency}:${request.asset}:${Date.now()}`,
    );
    return { price: res.price };
  }

  async execute(request: { reference: string; direction: 'on' | 'off'; fiatCurrency: string; fiatAmount: string; asset: string; assetAmount: string }) {
    const res = await this.client.post<{ id: string }>(
      '/v1/ramp/orders',
      {
        reference: request.reference,
        direction: request.direction,
        fiat_currency: request.fiatCurrency,
        fiat_amount: request.fiatAmount,
        asset: request.asset,
        asset_amount: request.assetAmount,
      },
      request.reference,
    );
    return { providerReference: res.id };
  }
}

/** HMAC-SHA256 (hex) over `<timestamp>.<body>`: what a webhook's X-Banking-Signature carries as `v1=`. */
export function signPayload(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}
