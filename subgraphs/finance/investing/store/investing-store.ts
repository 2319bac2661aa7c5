import type pg from 'pg';
import { inTransaction, type Store } from '../../../../lib/database';
import type { ProviderInstrument } from '../domain/providers/types';

export interface InstrumentRow {
  provider: string;
  symbol: string;
  name: string;
  assetClass: string;
  issuer: string | null;
  tradable: boolean;
  fractionable: boolean;
  active: boolean;
  quoteCurrency: string;
  lastPrice: string | null;
  lastPriceAt: Date | null;
}

export interface OrderRow {
  id: string;
  userId: string;
  provider: string;
  symbol: string;
  clientOrderId: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  qty: string | null;
  notional: string | null;
  limitPrice: string | null;
  currency: string;
  status: string;
  providerOrderId: string | null;
  filledQty: string;
  filledAvgPrice: string | null;
  reservationId: string | null;
  reservedMinor: string;
  quotePrice: string | null;
  settled: boolean;
  rejectReason: string | null;
  submittedAt: Date;
  updatedAt: Date;
  filledAt: Date | null;
}

export interface FillRow {
  id: string;
  orderId: string;
  provider: string;
  symbol: string;
  side: string;
  qty: string;
  price: string;
  createdAt: Date;
}

export interface PositionRow {
  provider: string;
  symbol: string;
  qty: string;
  heldQty: string;
  costBasis: string;
  lastPrice: string | null;
  lastPriceAt: Date | null;
  quoteCurrency: string;
  /** The instrument is listed (active) and tradable at its provider. */
  tradable: boolean;
}

export interface RunRow {
  id: string;
  kind: 'sync' | 'refresh';
  provider: string | null;
  trigger: string;
  startedAt: Date;
  finishedAt: Date | null;
  ok: number;
  failed: number;
  deactivated: number;
  error: string | null;
}

// numeric columns travel as text (exact); trailing zeros are trimmed for the wire
const num = (column: string, alias: string) => `trim_scale(${column})::text AS "${alias}"`;
const INSTRUMENT = `provider, symbol, name, asset_class AS "assetClass", issuer, tradable, fractionable, active, quote_currency AS "quoteCurrency",
  ${num('last_price', 'lastPrice')}, last_price_at AS "lastPriceAt"`;
const ORDER = `id, user_id AS "userId", provider, symbol, client_order_id AS "clientOrderId", side, type, ${num('qty', 'qty')}, ${num('notional', 'notional')},
  ${num('limit_price', 'limitPrice')}, currency, status, provider_order_id AS "providerOrderId", ${num('filled_qty', 'filledQty')},
  ${num('filled_avg_price', 'filledAvgPrice')}, reservation_id AS "reservationId", reserved_minor::text AS "reservedMinor", ${num('quote_price', 'quotePrice')},
  settled, reject_reason AS "rejectReason", submitted_at AS "submittedAt", updated_at AS "updatedAt", filled_at AS "filledAt"`;

/** SQL of the investing schema. */
export class InvestingStore {
  constructor(readonly store: Store) {}

  get pool(): pg.Pool {
    return this.store.pool;
  }

  transaction<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }

  /** Inserts or updates instruments in one statement per batch; the listed rows become active. */
  async upsertInstruments(provider: string, rows: ProviderInstrument[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 1000) {
      const batch = rows.slice(i, i + 1000);
      await this.pool.query(
        `INSERT INTO investing.instrument (provider, symbol, name, asset_class, issuer, tradable, fractionable, quote_currency, active, updated_at)
         SELECT $1, * , true, now() FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::boolean[], $8::text[])
         ON CONFLICT (provider, symbol) DO UPDATE SET name = EXCLUDED.name, asset_class = EXCLUDED.asset_class, issuer = EXCLUDED.issuer,
           tradable = EXCLUDED.tradable, fractionable = EXCLUDED.fractionable, quote_currency = EXCLUDED.quote_currency, active = true, updated_at = now()`,
        [
          provider,
          batch.map((r) => r.symbol),
          batch.map((r) => r.name),
          batch.map((r) => r.assetClass),
          batch.map((r) => r.issuer),
          batch.map((r) => r.tradable),
          batch.map((r) => r.fractionable),
          batch.map((r) => r.quoteCurrency),
        ],
      );
    }
  }

  /** Marks the provider's active instruments not in `symbols` inactive; returns how many. */
  async deactivateMissing(provider: string, symbols: string[]): Promise<number> {
    const res = await this.pool.query(
      `UPDATE investing.instrument SET active = false, updated_at = now() WHERE provider = $1 AND active AND NOT (symbol = ANY($2::text[]))`,
      [provider, symbols],
    );
    return res.rowCount ?? 0;
  }

  async instrument(provider: string, symbol: string): Promise<InstrumentRow | undefined> {
    const { rows } = await this.pool.query<InstrumentRow>(`SELECT ${INSTRUMENT} FROM investing.instrument WHERE provider = $1 AND symbol = $2`, [
      provider,
      symbol,
    ]);
    return rows[0];
  }

  /** A page of instruments ordered by symbol (keyset: after `afterSymbol`). */
  async instruments(f: { provider?: string; active?: boolean; afterSymbol?: string; limit: number }): Promise<InstrumentRow[]> {
    const { rows } = await this.pool.query<InstrumentRow>(
      `SELECT ${INSTRUMENT} FROM investing.instrument
        WHERE ($1::text IS NULL OR provider = $1) AND ($2::boolean IS NULL OR active = $2) AND ($3::text IS NULL OR symbol > $3)
        ORDER BY symbol, provider LIMIT $4`,
      [f.provider ?? null, f.active ?? null, f.afterSymbol ?? null, f.limit],
    );
    return rows;
  }

  async setPrice(provider: string, symbol: string, price: string, at: Date): Promise<void> {
    await this.pool.query(`UPDATE investing.instrument SET last_price = $3, last_price_at = $4 WHERE provider = $1 AND symbol = $2`, [
      provider,
      symbol,
      price,
      at,
    ]);
  }

  async startRun(kind: 'sync' | 'refresh', provider: string | null, trigger: string): Promise<string> {
    const { rows } = await this.pool.query<{ id: string }>(`INSERT INTO investing.run (kind, provider, trigger) VALUES ($1, $2, $3) RETURNING id::text`, [
      kind,
      provider,
      trigger,
    ]);
    return rows[0].id;
  }

  async finishRun(id: string, r: { ok: number; failed: number; deactivated?: number; error?: string }): Promise<void> {
    await this.pool.query(`UPDATE investing.run SET finished_at = now(), ok = $2, failed = $3, deactivated = $4, error = $5 WHERE id = $1`, [
      id,
      r.ok,
      r.failed,
      r.deactivated ?? 0,
      r.error ?? null,
    ]);
  }

  async runs(limit: number): Promise<RunRow[]> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT id::text, kind, provider, trigger, started_at AS "startedAt", finished_at AS "finishedAt", ok, failed, deactivated, error
         FROM investing.run ORDER BY started_at DESC, id DESC LIMIT $1`,
      [limit],
    );
    return rows;
  }

  /** Inserts the order once (a replay with the same id changes nothing); false when its client_order_id is taken by another order. */
  async insertOrder(
    o: Omit<OrderRow, 'filledQty' | 'filledAvgPrice' | 'settled' | 'submittedAt' | 'updatedAt' | 'filledAt' | 'providerOrderId' | 'rejectReason'>,
  ): Promise<boolean> {
    try {
      await this.pool.query(
        `INSERT INTO investing."order" (id, user_id, provider, symbol, client_order_id, side, type, qty, notional, limit_price, currency, status,
           reservation_id, reserved_minor, quote_price)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT (id) DO NOTHING`,
        [
          o.id,
          o.userId,
          o.provider,
          o.symbol,
          o.clientOrderId,
          o.side,
          o.type,
          o.qty,
          o.notional,
          o.limitPrice,
          o.currency,
          o.status,
          o.reservationId,
          o.reservedMinor,
          o.quotePrice,
        ],
      );
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return false;
      throw err;
    }
  }

  async order(id: string, c: pg.Pool | pg.PoolClient = this.pool, lock = false): Promise<OrderRow | undefined> {
    const { rows } = await c.query<OrderRow>(`SELECT ${ORDER} FROM investing."order" WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0];
  }

  async orderByClientId(userId: string, clientOrderId: string): Promise<OrderRow | undefined> {
    const { rows } = await this.pool.query<OrderRow>(`SELECT ${ORDER} FROM investing."order" WHERE user_id = $1 AND client_order_id = $2`, [
      userId,
      clientOrderId,
    ]);
    return rows[0];
  }

  /**
   * The open order a provider's event is about: by the provider's order id, or (an event that came
   * before the submission's answer was stored) by our client_order_id. The open-orders index serves it.
   */
  async openOrderAtProvider(provider: string, providerOrderId: string, clientOrderId: string | null): Promise<OrderRow | undefined> {
    const { rows } = await this.pool.query<OrderRow>(
      `SELECT ${ORDER} FROM investing."order"
        WHERE NOT settled AND provider = $1 AND (provider_order_id = $2 OR (provider_order_id IS NULL AND client_order_id = $3))
        ORDER BY provider_order_id NULLS LAST LIMIT 1`,
      [provider, providerOrderId, clientOrderId],
    );
    return rows[0];
  }

  async orders(f: { userId?: string; status?: string; before?: { at: Date; id: string }; limit: number }): Promise<OrderRow[]> {
    const { rows } = await this.pool.query<OrderRow>(
      `SELECT ${ORDER} FROM investing."order"
        WHERE ($1::uuid IS NULL OR user_id = $1) AND ($2::text IS NULL OR status = $2)
          AND ($3::timestamptz IS NULL OR (submitted_at, id) < ($3, $4::uuid))
        ORDER BY submitted_at DESC, id DESC LIMIT $5`,
      [f.userId ?? null, f.status ?? null, f.before?.at ?? null, f.before?.id ?? null, f.limit],
    );
    return rows;
  }

  async openOrders(limit: number): Promise<OrderRow[]> {
    const { rows } = await this.pool.query<OrderRow>(`SELECT ${ORDER} FROM investing."order" WHERE NOT settled ORDER BY updated_at LIMIT $1`, [limit]);
    return rows;
  }

  async orderCounts(): Promise<{ status: string; count: number }[]> {
    const { rows } = await this.pool.query<{ status: string; count: number }>(
      `SELECT status, count(*)::int AS count FROM investing."order" GROUP BY status ORDER BY status`,
    );
    return rows;
  }

  async updateOrder(
    c: pg.PoolClient,
    id: string,
    u: { status: string; providerOrderId?: string | null; filledQty: string; filledAvgPrice: string | null; settled: boolean; rejectReason?: string | null },
  ): Promise<void> {
    await c.query(
      `UPDATE investing."order" SET status = $2, provider_order_id = COALESCE($3, provider_order_id), filled_qty = $4, filled_avg_price = $5, settled = $6,
         reject_reason = COALESCE($7, reject_reason), updated_at = now(),
         filled_at = CASE WHEN $2 = 'filled' AND filled_at IS NULL THEN now() ELSE filled_at END
       WHERE id = $1`,
      [id, u.status, u.providerOrderId ?? null, u.filledQty, u.filledAvgPrice, u.settled, u.rejectReason ?? null],
    );
  }

  async insertFill(
    c: pg.PoolClient,
    f: { orderId: string; userId: string; provider: string; symbol: string; side: string; qty: string; price: string; cumulativeQty: string },
  ) {
    await c.query(
      `INSERT INTO investing.fill (order_id, user_id, provider, symbol, side, qty, price, cumulative_qty) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (order_id, cumulative_qty) DO NOTHING`,
      [f.orderId, f.userId, f.provider, f.symbol, f.side, f.qty, f.price, f.cumulativeQty],
    );
  }

  /** Buys add quantity and cost; sells take quantity (held by the order) and cost at the average. */
  async applyFillToPosition(c: pg.PoolClient, p: { userId: string; provider: string; symbol: string; side: 'buy' | 'sell'; qty: string; price: string }) {
    if (p.side === 'buy') {
      await c.query(
        `INSERT INTO investing.position (user_id, provider, symbol, qty, cost_basis) VALUES ($1, $2, $3, $4::numeric, $4::numeric * $5::numeric)
         ON CONFLICT (user_id, provider, symbol) DO UPDATE SET qty = position.qty + EXCLUDED.qty, cost_basis = position.cost_basis + EXCLUDED.cost_basis, updated_at = now()`,
        [p.userId, p.provider, p.symbol, p.qty, p.price],
      );
    } else {
      await c.query(
        `UPDATE investing.position SET cost_basis = CASE WHEN qty = $4::numeric THEN 0 ELSE round(cost_basis - cost_basis * $4::numeric / qty, 9) END,
           qty = qty - $4::numeric, held_qty = held_qty - $4::numeric, updated_at = now()
         WHERE user_id = $1 AND provider = $2 AND symbol = $3`,
        [p.userId, p.provider, p.symbol, p.qty],
      );
    }
  }

  /** Holds `qty` of the position for a sell order; false when the free quantity is smaller. */
  async holdShares(userId: string, provider: string, symbol: string, qty: string): Promise<boolean> {
    const res = await this.pool.query(
      `UPDATE investing.position SET held_qty = held_qty + $4::numeric, updated_at = now()
        WHERE user_id = $1 AND provider = $2 AND symbol = $3 AND qty - held_qty >= $4::numeric`,
      [userId, provider, symbol, qty],
    );
    return res.rowCount === 1;
  }

  async releaseShares(c: pg.PoolClient | pg.Pool, userId: string, provider: string, symbol: string, qty: string): Promise<void> {
    await c.query(`UPDATE investing.position SET held_qty = held_qty - $4::numeric, updated_at = now() WHERE user_id = $1 AND provider = $2 AND symbol = $3`, [
      userId,
      provider,
      symbol,
      qty,
    ]);
  }

  /** The user's open positions at every provider (a switch of the active one hides none), by symbol; with `symbol`, that one's. */
  async positions(userId: string, symbol?: string): Promise<PositionRow[]> {
    const { rows } = await this.pool.query<PositionRow>(
      `SELECT p.provider, p.symbol, ${num('p.qty', 'qty')}, ${num('p.held_qty', 'heldQty')}, ${num('p.cost_basis', 'costBasis')},
              ${num('i.last_price', 'lastPrice')}, i.last_price_at AS "lastPriceAt", i.quote_currency AS "quoteCurrency",
              (i.active AND i.tradable) AS tradable
         FROM investing.position p JOIN investing.instrument i USING (provider, symbol)
        WHERE p.user_id = $1 AND p.qty > 0 AND ($2::text IS NULL OR p.symbol = $2) ORDER BY p.symbol, p.provider`,
      [userId, symbol ?? null],
    );
    return rows;
  }

  async fills(userId: string, before: { at: Date; id: string } | undefined, limit: number): Promise<FillRow[]> {
    const { rows } = await this.pool.query<FillRow>(
      `SELECT id::text, order_id AS "orderId", provider, symbol, side, ${num('qty', 'qty')}, ${num('price', 'price')}, created_at AS "createdAt"
         FROM investing.fill WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3::bigint))
        ORDER BY created_at DESC, id DESC LIMIT $4`,
      [userId, before?.at ?? null, before?.id ?? null, limit],
    );
    return rows;
  }

  async activeInstruments(): Promise<InstrumentRow[]> {
    const { rows } = await this.pool.query<InstrumentRow>(`SELECT ${INSTRUMENT} FROM investing.instrument WHERE active ORDER BY provider, symbol`);
    return rows;
  }
}
