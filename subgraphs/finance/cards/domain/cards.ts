import { badInput, conflict, DomainError, notFound } from '../../../../lib/errors';
import { derivedUuid, IdempotentRequests } from '../../../../lib/idempotency';
import { INSUFFICIENT_FUNDS, LIMIT_EXCEEDED, LedgerClient, type LedgerLimits, type LedgerTransferInput } from '../../kernel/ledger-client';
import { toMinor, toMoney } from '../../kernel/currencies';
import { keysetPage, keysetResults } from '../../../../lib/pagination';
import { requireSecret, verifyWebhook } from '../../kernel/provider-http';
import type { SecretBox } from '../../../../lib/secret-box';
import type { KycLevel } from '../../kernel/kyc';
import { kycLevelReaches, kycRequiredError, requiredKycLevel, type NodeGate } from '../../kernel/gate';
import type { AuthorisationRow, CardRow, CardStore } from '../store/card-store';
import type { CardIssuer } from './issuer';
import { CARD_CURRENCIES, ISSUER_EVENTS, type AuthorisationView, type CardView, type DeclineReason } from '../vocabulary';
import type { Reauthenticate, Reauthentication } from './reauthentication';

/** A held authorisation is released by the ledger if the issuer never captures nor releases it. */
const HOLD_SECONDS = 7 * 86400;
const CLEARING = 'cards:clearing';
/** The ledger's refusals of a hold that decline the authorisation (the holder's funds, their KYC level's limits). */
const LEDGER_DECLINES: Record<string, DeclineReason> = { [INSUFFICIENT_FUNDS]: 'insufficient_funds', [LIMIT_EXCEEDED]: 'limit_exceeded' };

export interface CardHolder {
  userId: string;
  kycLevel: KycLevel;
}

export interface Page<T> {
  results: T[];
  nextCursor: string | null;
}

export interface IssuerEvent {
  id?: string;
  type?: string;
  data?: {
    authorization?: {
      id?: string;
      card?: string;
      amount?: string;
      currency?: string;
      merchant_data?: { name?: string; category?: string };
    };
  };
}

export interface IssuerEventOutcome {
  approved: boolean;
  declineReason: string | null;
  authorisation: AuthorisationView;
}

export const cardView = (c: CardRow): CardView => ({
  id: c.id,
  brand: c.brand,
  last4: c.last4,
  maskedNumber: `•••• •••• •••• ${c.last4}`,
  expMonth: c.expMonth,
  expYear: c.expYear,
  currency: c.currency,
  status: c.status,
  perAuthorisationLimit: c.perAuthorisationLimit === null ? null : toMoney(c.perAuthorisationLimit, c.currency),
  dailyLimit: c.dailyLimit === null ? null : toMoney(c.dailyLimit, c.currency),
  createdAt: c.createdAt,
});

export const authorisationView = (a: AuthorisationRow): AuthorisationView => ({
  id: a.id,
  cardId: a.cardId,
  providerAuthorisationId: a.providerAuthorisationId,
  amount: toMoney(a.amount, a.currency),
  merchantName: a.merchantName,
  merchantCategory: a.merchantCategory,
  status: a.status,
  declineReason: a.declineReason,
  capturedAmount: a.capturedAmount === null ? null : toMoney(a.capturedAmount, a.currency),
  createdAt: a.createdAt,
});

const sealContext = (cardId: string) => `cards.card.pan:${cardId}`;
const startOfUtcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

function limitOf(value: string | null | undefined, currency: string, field: string): bigint | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const minor = toMinor(value, currency, field);
  if (minor <= 0n) throw badInput(`${field} must be positive.`, { [field]: ['A positive amount.'] });
  return minor;
}

/**
 * Virtual cards: issued by the card issuer, the number sealed at rest and shown only on an audited
 * reveal; frozen and unfrozen at the issuer; spend limits checked when the issuer asks to authorise.
 * An approved authorisation holds the amount on the holder's wallet as a pending ledger transfer,
 * which the issuer's capture posts (all or part) and its release voids.
 */
export class CardService {
  constructor(
    private readonly store: CardStore,
    private readonly issuer: CardIssuer,
    private readonly ledger: LedgerClient,
    private readonly box: SecretBox,
    private readonly gate: NodeGate,
    private readonly idempotency: IdempotentRequests,
    /** The holder's password (and 2FA code) checked again by identity before a reveal. */
    private readonly reauthenticate: Reauthenticate,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async issue(
    holder: CardHolder,
    input: { currency: string; perAuthorisationLimit?: string | null; dailyLimit?: string | null },
    idempotencyKey: string | null | undefined,
  ): Promise<CardView> {
    if (!(CARD_CURRENCIES as readonly string[]).includes(input.currency)) {
      throw badInput(`A card spends one of ${CARD_CURRENCIES.join(', ')}.`, { currency: [`One of ${CARD_CURRENCIES.join(', ')}.`] });
    }
    const perAuthorisationLimit = limitOf(input.perAuthorisationLimit, input.currency, 'perAuthorisationLimit') ?? null;
    const dailyLimit = limitOf(input.dailyLimit, input.currency, 'dailyLimit') ?? null;
    const required = requiredKycLevel(await this.gate.state());
    if (!kycLevelReaches(holder.kycLevel, required)) throw kycRequiredError(required, holder.kycLevel);
    return this.idempotency.run({ owner: `user:${holder.userId}`, key: idempotencyKey, operation: 'issueCard', input }, async (ids) => {
      const id = ids('card');
      const issued = await this.issuer.issueCard({ cardholder: holder.userId, currency: input.currency, idempotencyKey: id });
      const row = await this.store.insertCard({
        id,
        userId: holder.userId,
        provider: this.issuer.name,
        providerCardId: issued.providerCardId,
        panSealed: this.box.seal(issued.pan, sealContext(id)),
        last4: issued.pan.slice(-4),
        brand: issued.brand,
        expMonth: issued.expMonth,
        expYear: issued.expYear,
        currency: input.currency,
        status: 'active',
        perAuthorisationLimit,
        dailyLimit,
        kycLevel: holder.kycLevel,
      });
      return cardView(row);
    });
  }

  async list(holder: CardHolder, cursor?: string | null, limit?: number | null): Promise<Page<CardView>> {
    const page = keysetPage(cursor, limit);
    return keysetResults(await this.store.cardsOf(holder.userId, page), page, cardView);
  }

  async get(holder: CardHolder, id: string): Promise<CardView> {
    return cardView(await this.owned(holder, id));
  }

  /**
   * The full number and the security code (asked of the issuer, never stored), for its holder only, once the password (and the 2FA code) is given again and
   * checked by identity (throttled like sign-in); every reveal is recorded (who, when, which request, from where).
   */
  async reveal(
    holder: CardHolder,
    id: string,
    credentials: Omit<Reauthentication, 'clientAddress'>,
    audit: { requestId: string; clientAddress?: string },
  ): Promise<{ id: string; number: string; cvc: string; expMonth: number; expYear: number }> {
    const card = await this.owned(holder, id);
    await this.reauthenticate(holder.userId, { ...credentials, clientAddress: audit.clientAddress });
    await this.store.recordReveal(card.id, holder.userId, audit.requestId, audit.clientAddress);
    const cvc = await this.issuer.cvcOf(card.providerCardId);
    return { id: card.id, number: this.box.open(card.panSealed, sealContext(card.id)), cvc, expMonth: card.expMonth, expYear: card.expYear };
  }

  async setFrozen(holder: CardHolder, id: string, frozen: boolean): Promise<CardView> {
    const card = await this.owned(holder, id);
    await this.issuer.setActive(card.providerCardId, !frozen);
    return cardView(await this.store.updateCard(card.id, { status: frozen ? 'frozen' : 'active' }));
  }

  /** Sets or clears (null) the limits; an omitted limit stays as it is. */
  async updateLimits(holder: CardHolder, id: string, input: { perAuthorisationLimit?: string | null; dailyLimit?: string | null }): Promise<CardView> {
    const card = await this.owned(holder, id);
    return cardView(
      await this.store.updateCard(card.id, {
        perAuthorisationLimit: limitOf(input.perAuthorisationLimit, card.currency, 'perAuthorisationLimit'),
        dailyLimit: limitOf(input.dailyLimit, card.currency, 'dailyLimit'),
      }),
    );
  }

  async authorisations(holder: CardHolder, cardId: string, cursor?: string | null, limit?: number | null): Promise<Page<AuthorisationView>> {
    const card = await this.owned(holder, cardId);
    const page = keysetPage(cursor, limit);
    return keysetResults(await this.store.authorisationsOf(card.id, page), page, authorisationView);
  }

  /** A signed event of the issuer (the webhook): verified, then applied once whatever the deliveries. */
  async receiveEvent(provider: string, event: IssuerEvent, signature: string | null | undefined): Promise<IssuerEventOutcome> {
    if (provider !== this.issuer.name) throw notFound(`No card issuer "${provider}".`);
    verifyWebhook(await requireSecret(this.issuer.webhookSecret, "The card issuer's webhook secret"), event, signature, this.clock());
    const a = event.data?.authorization;
    if (!a?.id || !a.card || typeof a.amount !== 'string' || !a.currency) {
      throw badInput('The event names an authorization with id, card, amount and currency.', { data: ['authorization: id, card, amount, currency'] });
    }
    const card = await this.store.cardByProviderId(this.issuer.name, a.card);
    if (!card) throw notFound('No such card.');
    const amount = toMinor(a.amount, a.currency);
    if (amount <= 0n) throw badInput('amount must be positive.', { amount: ['A positive amount.'] });
    switch (event.type) {
      case 'issuing_authorization.request':
        return this.authorise(card, { providerId: a.id, amount, currency: a.currency, merchant: a.merchant_data ?? {} });
      case 'issuing_authorization.captured':
        return this.capture(card, a.id, amount);
      case 'issuing_authorization.released':
        return this.release(card, a.id);
      default:
        throw badInput(`Unknown event type; one of ${ISSUER_EVENTS.join(', ')}.`, { type: [...ISSUER_EVENTS] });
    }
  }

  /** Administrators: the newest cards (masked) and authorisations. */
  async recentCards(limit: number): Promise<CardView[]> {
    return (await this.store.allCards(limit)).map(cardView);
  }

  async recentAuthorisations(limit: number): Promise<AuthorisationView[]> {
    return (await this.store.allAuthorisations(limit)).map(authorisationView);
  }

  private async owned(holder: CardHolder, id: string): Promise<CardRow> {
    const card = /^[0-9a-f-]{36}$/i.test(id) ? await this.store.card(id) : undefined;
    if (!card || card.userId !== holder.userId) throw notFound('No such card.');
    // authorisations arrive without the holder: they read the level the holder last showed
    if (card.kycLevel !== holder.kycLevel) return this.store.updateCard(card.id, { kycLevel: holder.kycLevel });
    return card;
  }

  private async authorise(
    card: CardRow,
    request: { providerId: string; amount: bigint; currency: string; merchant: { name?: string; category?: string } },
  ): Promise<IssuerEventOutcome> {
    const state = await this.gate.state();
    // decided under the card's row lock: concurrent authorisations of one card see each other's amounts
    const decided = await this.store.transaction(async (db) => {
      const locked = (await this.store.card(card.id, db, true))!;
      const known = await this.store.authorisationByProviderId(card.id, request.providerId, db);
      if (known) return known;
      const reason = await this.declineReason(db, locked, request, requiredKycLevel(state));
      return this.store.insertAuthorisation(db, {
        id: derivedUuid('cards:authorisation', card.id, request.providerId),
        cardId: card.id,
        providerAuthorisationId: request.providerId,
        amount: request.amount,
        currency: request.currency,
        merchantName: request.merchant.name ?? '',
        merchantCategory: request.merchant.category ?? '',
        status: reason ? 'declined' : 'pending',
        declineReason: reason,
      });
    });
    if (decided.status === 'pending') {
      // (again on a redelivery: the hold's id is derived, so it is applied once)
      try {
        await this.hold(card, decided);
      } catch (err) {
        const reason = err instanceof DomainError ? LEDGER_DECLINES[err.code] : undefined;
        if (!reason) throw err;
        const declined = await this.store.settleAuthorisation(decided.id, 'pending', 'declined', { declineReason: reason });
        return outcome(declined ?? (await this.store.authorisation(decided.id))!);
      }
    }
    return outcome(decided);
  }

  private async declineReason(
    db: Parameters<CardStore['spentSince']>[0],
    card: CardRow,
    request: { amount: bigint; currency: string },
    required: KycLevel,
  ): Promise<DeclineReason | null> {
    if (card.status === 'frozen') return 'card_frozen';
    if (request.currency !== card.currency) return 'currency_mismatch';
    if (!kycLevelReaches(card.kycLevel as KycLevel, required)) return 'kyc_required';
    if (card.perAuthorisationLimit !== null && request.amount > card.perAuthorisationLimit) return 'authorisation_limit';
    if (card.dailyLimit !== null && (await this.store.spentSince(db, card.id, startOfUtcDay(this.clock()))) + request.amount > card.dailyLimit) {
      return 'daily_limit';
    }
    return null;
  }

  /** The one place this subgraph moves a holder's money on the ledger; `limits` for the holder's own spending. */
  private async move(transfers: LedgerTransferInput[], limits?: LedgerLimits): Promise<void> {
    await this.ledger.transfers(transfers, limits);
  }

  private async hold(card: CardRow, a: AuthorisationRow): Promise<void> {
    const [wallet, clearing] = await Promise.all([this.ledger.wallet(card.userId, card.currency), this.ledger.system(card.currency, CLEARING)]);
    await this.move(
      [
        {
          id: holdId(a.id),
          debitAccountId: wallet,
          creditAccountId: clearing,
          amount: toMoney(a.amount, a.currency).amount,
          code: 'card_authorisation',
          kind: 'pending',
          timeoutSeconds: HOLD_SECONDS,
          metadata: { cardId: card.id, authorisationId: a.id },
        },
      ],
      { userId: card.userId, kycLevel: card.kycLevel },
    );
  }

  private async capture(card: CardRow, providerId: string, amount: bigint): Promise<IssuerEventOutcome> {
    const a = await this.store.authorisationByProviderId(card.id, providerId);
    if (!a) throw notFound('No such authorisation (the request event comes first; redeliver later).');
    if (a.status === 'captured') return outcome(a);
    if (a.status !== 'pending') throw conflict(`The authorisation is ${a.status}; it cannot be captured.`);
    if (amount > a.amount) throw badInput('A capture takes at most the authorised amount.', { amount: ['At most the authorised amount.'] });
    await this.move([
      {
        id: derivedUuid('cards:capture', a.id),
        pendingId: holdId(a.id),
        amount: toMoney(amount, a.currency).amount,
        code: 'card_capture',
        kind: 'post_pending',
      },
    ]);
    return outcome((await this.store.settleAuthorisation(a.id, 'pending', 'captured', { capturedAmount: amount })) ?? (await this.store.authorisation(a.id))!);
  }

  private async release(card: CardRow, providerId: string): Promise<IssuerEventOutcome> {
    const a = await this.store.authorisationByProviderId(card.id, providerId);
    if (!a) throw notFound('No such authorisation (the request event comes first; redeliver later).');
    if (a.status === 'released' || a.status === 'declined') return outcome(a);
    if (a.status !== 'pending') throw conflict(`The authorisation is ${a.status}; it cannot be released.`);
    await this.move([{ id: derivedUuid('cards:release', a.id), pendingId: holdId(a.id), code: 'card_release', kind: 'void_pending' }]);
    return outcome((await this.store.settleAuthorisation(a.id, 'pending', 'released')) ?? (await this.store.authorisation(a.id))!);
  }
}

const holdId = (authorisationId: string) => derivedUuid('cards:hold', authorisationId);

const outcome = (a: AuthorisationRow): IssuerEventOutcome => ({
  approved: a.status !== 'declined',
  declineReason: a.declineReason,
  authorisation: authorisationView(a),
});
