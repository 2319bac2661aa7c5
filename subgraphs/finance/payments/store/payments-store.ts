import type { Store } from '../../../../lib/database';

export interface QuoteRow {
  id: string;
  userId: string;
  sourceCurrency: string;
  targetCurrency: string;
  sourceAmount: bigint;
  fee: bigint;
  targetAmount: bigint;
  rate: string;
  provider: string;
  expiresAt: Date;
  conversionKey: string | null;
  convertedAt: Date | null;
  createdAt: Date;
}

export interface ProviderEventRow {
  id: string;
  provider: string;
  eventId: string;
  type: string;
  status: 'received' | 'processed' | 'failed' | 'ignored';
  payload: Record<string, unknown>;
  error: string | null;
  receivedAt: Date;
  processedAt: Date | null;
}

const QUOTE_COLUMNS = `id, user_id AS "userId", source_currency AS "sourceCurrency", target_currency AS "targetCurrency",
  source_amount::text AS "sourceAmount", fee::text AS fee, target_amount::text AS "targetAmount", rate, provider,
  expires_at AS "expiresAt", conversion_key AS "conversionKey", converted_at AS "convertedAt", created_at AS "createdAt"`;
const EVENT_COLUMNS = `id, provider, event_id AS "eventId", type, status, payload, error, received_at AS "receivedAt", processed_at AS "processedAt"`;

type RawQuote = Omit<QuoteRow, 'sourceAmount' | 'fee' | 'targetAmount'> & { sourceAmount: string; fee: string; targetAmount: string };
const quote = (r: RawQuote): QuoteRow => ({ ...r, sourceAmount: BigInt(r.sourceAmount), fee: BigInt(r.fee), targetAmount: BigInt(r.targetAmount) });

/** SQL of the payments schema. */
export class PaymentsStore {
  constructor(readonly store: Store) {}

  async insertQuote(q: Omit<QuoteRow, 'conversionKey' | 'convertedAt' | 'createdAt'>): Promise<QuoteRow> {
    const { rows } = await this.store.pool.query<RawQuote>(
      `INSERT INTO payments.fx_quote (id, user_id, source_currency, target_currency, source_amount, fee, target_amount, rate, provider, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${QUOTE_COLUMNS}`,
      [
        q.id,
        q.userId,
        q.sourceCurrency,
        q.targetCurrency,
        q.sourceAmount.toString(),
        q.fee.toString(),
        q.targetAmount.toString(),
        q.rate,
        q.provider,
        q.expiresAt,
      ],
    );
    return quote(rows[0]);
  }

  async quote(id: string, userId: string): Promise<QuoteRow | undefined> {
    const { rows } = await this.store.pool.query<RawQuote>(`SELECT ${QUOTE_COLUMNS} FROM payments.fx_quote WHERE id = $1 AND user_id = $2`, [id, userId]);
    return rows[0] ? quote(rows[0]) : undefined;
  }

  /** Claims the quote for the request with `key` (or finds it claimed by it already); undefined when another request has it. */
  async claimQuote(id: string, userId: string, key: string): Promise<QuoteRow | undefined> {
    const { rows } = await this.store.pool.query<RawQuote>(
      `UPDATE payments.fx_quote SET conversion_key = $3 WHERE id = $1 AND user_id = $2 AND (conversion_key IS NULL OR conversion_key = $3)
       RETURNING ${QUOTE_COLUMNS}`,
      [id, userId, key],
    );
    return rows[0] ? quote(rows[0]) : undefined;
  }

  /** Gives the quote back when its conversion was refused (e.g. insufficient funds): the user may try again. */
  async releaseQuote(id: string, key: string): Promise<void> {
    await this.store.pool.query('UPDATE payments.fx_quote SET conversion_key = NULL WHERE id = $1 AND conversion_key = $2 AND converted_at IS NULL', [id, key]);
  }

  async markConverted(id: string, at: Date): Promise<void> {
    await this.store.pool.query('UPDATE payments.fx_quote SET converted_at = COALESCE(converted_at, $2) WHERE id = $1', [id, at]);
  }

  /** Records a provider's event once per (provider, event id); `created` is false for a repeated delivery. */
  async recordEvent(e: {
    provider: string;
    eventId: string;
    type: string;
    payload: Record<string, unknown>;
  }): Promise<{ event: ProviderEventRow; created: boolean }> {
    const { rows } = await this.store.pool.query<ProviderEventRow & { created: boolean }>(
      `WITH ins AS (
         INSERT INTO payments.provider_event (provider, event_id, type, payload) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (provider, event_id) DO NOTHING RETURNING ${EVENT_COLUMNS})
       SELECT *, true AS created FROM ins UNION ALL
       SELECT ${EVENT_COLUMNS}, false AS created FROM payments.provider_event WHERE provider = $1 AND event_id = $2 AND NOT EXISTS (SELECT 1 FROM ins)`,
      [e.provider, e.eventId, e.type, JSON.stringify(e.payload)],
    );
    const { created, ...event } = rows[0];
    return { event, created };
  }

  async events(first: number): Promise<ProviderEventRow[]> {
    const { rows } = await this.store.pool.query<ProviderEventRow>(
      `SELECT ${EVENT_COLUMNS} FROM payments.provider_event ORDER BY received_at DESC, id LIMIT $1`,
      [first],
    );
    return rows;
  }
}
