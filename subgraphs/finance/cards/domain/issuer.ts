import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { number as validateCardNumber } from 'card-validator';
import { fixedSecret, ProviderClient, ProviderRejected, type SecretSource } from '../../kernel/provider-http';
import { DomainError } from '../../../../lib/errors';

/** A card as the issuer hands it over once: the full number goes straight into the secret box. */
export interface IssuedCard {
  providerCardId: string;
  pan: string;
  brand: string;
  expMonth: number;
  expYear: number;
}

/**
 * The card issuer (Stripe Issuing's shape): issues virtual cards, activates and deactivates them,
 * and asks the node to decide each authorisation by a signed webhook (`issuing_authorization.request`,
 * then `.captured` or `.released`). `name` is the `<provider>` of the webhook path.
 */
export interface CardIssuer {
  readonly name: string;
  /** The HMAC secret the issuer signs its webhooks with. */
  readonly webhookSecret: SecretSource;
  issueCard(input: { cardholder: string; currency: string; idempotencyKey: string }): Promise<IssuedCard>;
  setActive(providerCardId: string, active: boolean): Promise<void>;
  /**
   * The card's security code (CVC), asked of the issuer at each reveal and never stored by the node
   * (PCI DSS 3.2: no storage of the card verification code), as Stripe Issuing's `expand: ['cvc']`.
   */
  cvcOf(providerCardId: string): Promise<string>;
}

/** The issuer answered, but not what the node can use: a bad gateway, not the client's mistake. */
const providerRejected = (message: string) => new DomainError('PROVIDER_REJECTED', 502, message);

/** A PAN is 13–19 digits passing the issuer's checks (Luhn, brand lengths): card-validator's rules. */
export function assertValidPan(pan: string): string {
  const result = validateCardNumber(pan);
  if (!result.isValid) throw providerRejected('The card issuer returned an invalid card number.');
  return result.card?.type ?? 'unknown';
}

/** Luhn check digit of `digits` (the payload without it). */
export function luhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d *= 2;
    sum += d > 9 ? d - 9 : d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Visa's test range (4000 00…): numbers that pass Luhn and brand checks but belong to no real account. */
const SANDBOX_BIN = '400000';

/** The offline issuer of `npm start` and the demo: Luhn-valid test numbers, kept in memory per idempotency key. */
export class SandboxIssuer implements CardIssuer {
  readonly name = 'sandbox';
  private readonly issued = new Map<string, IssuedCard>();

  readonly webhookSecret: SecretSource;

  constructor(webhookSecret: string) {
    this.webhookSecret = fixedSecret(webhookSecret);
  }

  async issueCard(input: { idempotencyKey: string }): Promise<IssuedCard> {
    const known = this.issued.get(input.idempotencyKey);
    if (known) return known;
    const body = SANDBOX_BIN + Array.from({ length: 9 }, () => randomInt(10)).join('');
    const pan = body + luhnCheckDigit(body);
    const now = new Date();
    const card = {
      providerCardId: `ic_${randomUUID().replace(/-/g, '')}`,
      pan,
      brand: assertValidPan(pan),
      expMonth: now.getUTCMonth() + 1,
      expYear: now.getUTCFullYear() + 3,
    };
    this.issued.set(input.idempotencyKey, card);
    return card;
  }

  async setActive(): Promise<void> {}

  /** A test code derived from the card's id (the same on every reveal and after a restart), as a sandbox issuer's. */
  async cvcOf(providerCardId: string): Promise<string> {
    const secret = await this.webhookSecret();
    const digest = createHmac('sha256', `sandbox-cvc:${secret}`).update(providerCardId).digest();
    return String(digest.readUInt32BE(0) % 1000).padStart(3, '0');
  }
}

interface IssuerCardBody {
  id: string;
  number: string;
  exp_month: number;
  exp_year: number;
  cvc?: string;
}

/** A real issuer over HTTP (CARD_ISSUER_URL): bearer API key, Idempotency-Key on writes, timeouts and retries. */
export class HttpIssuer implements CardIssuer {
  readonly name = 'issuer';
  private readonly client: ProviderClient;

  constructor(opts: { baseUrl: string; apiKey: SecretSource; webhookSecret: SecretSource; timeoutMs?: number; attempts?: number; backoffMs?: number }) {
    this.client = new ProviderClient({ provider: 'card issuer', ...opts });
    this.webhookSecret = opts.webhookSecret;
  }

  readonly webhookSecret: SecretSource;

  async issueCard(input: { cardholder: string; currency: string; idempotencyKey: string }): Promise<IssuedCard> {
    const body = await this.call(() =>
      this.client.request<IssuerCardBody>(
        'POST',
        '/v1/issuing/cards',
        { type: 'virtual', cardholder: input.cardholder, currency: input.currency },
        input.idempotencyKey,
      ),
    );
    return { providerCardId: body.id, pan: body.number, brand: assertValidPan(body.number), expMonth: body.exp_month, expYear: body.exp_year };
  }

  async setActive(providerCardId: string, active: boolean): Promise<void> {
    await this.call(() => this.client.request('POST', `/v1/issuing/cards/${encodeURIComponent(providerCardId)}`, { status: active ? 'active' : 'inactive' }));
  }

  async cvcOf(providerCardId: string): Promise<string> {
    const body = await this.call(() => this.client.request<IssuerCardBody>('GET', `/v1/issuing/cards/${encodeURIComponent(providerCardId)}?expand[]=cvc`));
    if (typeof body.cvc !== 'string' || !/^[0-9]{3,4}$/.test(body.cvc)) throw providerRejected('The card issuer returned no valid security code.');
    return body.cvc;
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof ProviderRejected) throw providerRejected(`The card issuer refused the request (${err.status}).`);
      throw err;
    }
  }
}
