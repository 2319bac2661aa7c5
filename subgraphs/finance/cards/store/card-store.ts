import type pg from 'pg';
import type { Store } from '../../../../lib/database';
import type { KeysetPage as Page } from '../../../../lib/pagination';

export type CardStatus = 'active' | 'frozen';
export type AuthorisationStatus = 'pending' | 'declined' | 'captured' | 'released';

export interface CardRow {
  id: string;
  seq: number;
  userId: string;
  provider: string;
  providerCardId: string;
  panSealed: string;
  last4: string;
  brand: string;
  expMonth: number;
  expYear: number;
  currency: string;
  status: CardStatus;
  perAuthorisationLimit: bigint | null;
  dailyLimit: bigint | null;
  kycLevel: string;
  createdAt: Date;
}

export interface AuthorisationRow {
  id: string;
  seq: number;
  cardId: string;
  providerAuthorisationId: string;
  amount: bigint;
  currency: string;
  merchantName: string;
  merchantCategory: string;
  status: AuthorisationStatus;
  declineReason: string | null;
  capturedAmount: bigint | null;
  createdAt: Date;
}

const CARD = `id, seq::int AS seq, user_id AS "userId", provider, provider_card_id AS "providerCardId", pan_sealed AS "panSealed", last4, brand,
  exp_month AS "expMonth", exp_year AS "expYear", currency, status, per_authorisation_limit::text AS "perAuthorisationLimit",
  daily_limit::text AS "dailyLimit", kyc_level AS "kycLevel", created_at AS "createdAt"`;
const AUTHORISATION = `id, seq::int AS seq, card_id AS "cardId", provider_authorisation_id AS "providerAuthorisationId", amount::text AS amount, currency,
  merchant_name AS "merchantName", merchant_category AS "merchantCategory", status, decline_reason AS "declineReason",
  captured_amount::text AS "capturedAmount", created_at AS "createdAt"`;

type Raw<T, K extends keyof T> = Omit<T, K> & { [P in K]: string | null };
const big = (v: string | null) => (v === null ? null : BigInt(v));
type RawCard = Raw<CardRow, 'perAuthorisationLimit' | 'dailyLimit'>;
type RawAuthorisation = Raw<AuthorisationRow, 'amount' | 'capturedAmount'>;
const card = (r: RawCard): CardRow => ({
  ...r,
  perAuthorisationLimit: big(r.perAuthorisationLimit),
  dailyLimit: big(r.dailyLimit),
});
const authorisation = (r: RawAuthorisation): AuthorisationRow => ({
  ...r,
  amount: BigInt(r.amount!),
  capturedAmount: big(r.capturedAmount),
});

/** SQL of the cards schema. */
export class CardStore {
  constructor(readonly store: Store) {}

  async insertCard(c: Omit<CardRow, 'seq' | 'createdAt'>): Promise<CardRow> {
    const { rows } = await this.store.pool.query<RawCard>(
      `INSERT INTO cards.card (id, user_id, provider, provider_card_id, pan_sealed, last4, brand, exp_month, exp_year, currency, status,
         per_authorisation_limit, daily_limit, kyc_level)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (id) DO UPDATE SET updated_at = cards.card.updated_at
       RETURNING ${CARD}`,
      [
        c.id,
        c.userId,
        c.provider,
        c.providerCardId,
        c.panSealed,
        c.last4,
        c.brand,
        c.expMonth,
        c.expYear,
        c.currency,
        c.status,
        c.perAuthorisationLimit?.toString() ?? null,
        c.dailyLimit?.toString() ?? null,
        c.kycLevel,
      ],
    );
    return card(rows[0]);
  }

  async card(id: string, db: Pick<pg.Pool, 'query'> = this.store.pool, lock = false): Promise<CardRow | undefined> {
    const { rows } = await db.query<RawCard>(`SELECT ${CARD} FROM cards.card WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0] ? card(rows[0]) : undefined;
  }

  async cardByProviderId(provider: string, providerCardId: string): Promise<CardRow | undefined> {
    const { rows } = await this.store.pool.query<RawCard>(`SELECT ${CARD} FROM cards.card WHERE provider = $1 AND provider_card_id = $2`, [
      provider,
      providerCardId,
    ]);
    return rows[0] ? card(rows[0]) : undefined;
  }

  async cardsOf(userId: string, page: Page): Promise<CardRow[]> {
    const { rows } = await this.store.pool.query<RawCard>(
      `SELECT ${CARD} FROM cards.card WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, seq) < ($2, $3))
       ORDER BY created_at DESC, seq DESC LIMIT $4`,
      [userId, page.after?.at ?? null, page.after?.seq ?? 0, page.limit],
    );
    return rows.map(card);
  }

  async allCards(limit: number): Promise<CardRow[]> {
    const { rows } = await this.store.pool.query<RawCard>(`SELECT ${CARD} FROM cards.card ORDER BY created_at DESC, seq DESC LIMIT $1`, [limit]);
    return rows.map(card);
  }

  async updateCard(id: string, change: { status?: CardStatus; perAuthorisationLimit?: bigint | null; dailyLimit?: bigint | null; kycLevel?: string }) {
    const { rows } = await this.store.pool.query<RawCard>(
      `UPDATE cards.card SET
         status = COALESCE($2, status),
         per_authorisation_limit = CASE WHEN $3 THEN $4::bigint ELSE per_authorisation_limit END,
         daily_limit = CASE WHEN $5 THEN $6::bigint ELSE daily_limit END,
         kyc_level = COALESCE($7, kyc_level),
         updated_at = now()
       WHERE id = $1 RETURNING ${CARD}`,
      [
        id,
        change.status ?? null,
        change.perAuthorisationLimit !== undefined,
        change.perAuthorisationLimit?.toString() ?? null,
        change.dailyLimit !== undefined,
        change.dailyLimit?.toString() ?? null,
        change.kycLevel ?? null,
      ],
    );
    return card(rows[0]);
  }

  async recordReveal(cardId: string, userId: string, requestId: string, clientAddress: string | undefined): Promise<void> {
    await this.store.pool.query('INSERT INTO cards.reveal (card_id, user_id, request_id, client_address) VALUES ($1, $2, $3, $4)', [
      cardId,
      userId,
      requestId,
      clientAddress ?? null,
    ]);
  }

  async reveals(cardId: string): Promise<number> {
    const { rows } = await this.store.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM cards.reveal WHERE card_id = $1', [cardId]);
    return rows[0].n;
  }

  /** Runs `work` in one transaction (a card's authorisations are decided under its row lock). */
  async transaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.store.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async authorisationByProviderId(cardId: string, providerAuthorisationId: string, db: Pick<pg.Pool, 'query'> = this.store.pool) {
    const { rows } = await db.query<RawAuthorisation>(
      `SELECT ${AUTHORISATION} FROM cards.authorisation WHERE card_id = $1 AND provider_authorisation_id = $2`,
      [cardId, providerAuthorisationId],
    );
    return rows[0] ? authorisation(rows[0]) : undefined;
  }

  /** What the card authorised since `since` and still holds or took (pending and captured). */
  async spentSince(db: Pick<pg.Pool, 'query'>, cardId: string, since: Date): Promise<bigint> {
    const { rows } = await db.query<{ total: string }>(
      `SELECT COALESCE(sum(CASE WHEN status = 'captured' THEN captured_amount ELSE amount END), 0)::text AS total
         FROM cards.authorisation WHERE card_id = $1 AND status IN ('pending', 'captured') AND created_at >= $2`,
      [cardId, since],
    );
    return BigInt(rows[0].total);
  }

  async insertAuthorisation(db: Pick<pg.Pool, 'query'>, a: Omit<AuthorisationRow, 'seq' | 'createdAt' | 'capturedAmount'>): Promise<AuthorisationRow> {
    const { rows } = await db.query<RawAuthorisation>(
      `INSERT INTO cards.authorisation (id, card_id, provider_authorisation_id, amount, currency, merchant_name, merchant_category, status, decline_reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${AUTHORISATION}`,
      [a.id, a.cardId, a.providerAuthorisationId, a.amount.toString(), a.currency, a.merchantName, a.merchantCategory, a.status, a.declineReason],
    );
    return authorisation(rows[0]);
  }

  /** Moves an authorisation on from `from` (a lost race changes nothing and answers undefined). */
  async settleAuthorisation(id: string, from: AuthorisationStatus, to: AuthorisationStatus, extra: { declineReason?: string; capturedAmount?: bigint } = {}) {
    const { rows } = await this.store.pool.query<RawAuthorisation>(
      `UPDATE cards.authorisation SET status = $3, decline_reason = $4, captured_amount = $5, updated_at = now()
        WHERE id = $1 AND status = $2 RETURNING ${AUTHORISATION}`,
      [id, from, to, extra.declineReason ?? null, extra.capturedAmount?.toString() ?? null],
    );
    return rows[0] ? authorisation(rows[0]) : undefined;
  }

  async authorisation(id: string): Promise<AuthorisationRow | undefined> {
    const { rows } = await this.store.pool.query<RawAuthorisation>(`SELECT ${AUTHORISATION} FROM cards.authorisation WHERE id = $1`, [id]);
    return rows[0] ? authorisation(rows[0]) : undefined;
  }

  async authorisationsOf(cardId: string, page: Page): Promise<AuthorisationRow[]> {
    const { rows } = await this.store.pool.query<RawAuthorisation>(
      `SELECT ${AUTHORISATION} FROM cards.authorisation WHERE card_id = $1 AND ($2::timestamptz IS NULL OR (created_at, seq) < ($2, $3))
       ORDER BY created_at DESC, seq DESC LIMIT $4`,
      [cardId, page.after?.at ?? null, page.after?.seq ?? 0, page.limit],
    );
    return rows.map(authorisation);
  }

  async allAuthorisations(limit: number): Promise<AuthorisationRow[]> {
    const { rows } = await this.store.pool.query<RawAuthorisation>(
      `SELECT ${AUTHORISATION} FROM cards.authorisation ORDER BY created_at DESC, seq DESC LIMIT $1`,
      [limit],
    );
    return rows.map(authorisation);
  }
}
