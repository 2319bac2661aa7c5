import type { Store } from '../../../../lib/database';
import type { KeysetPage } from '../../../../lib/pagination';

export interface AddressRow {
  id: string;
  seq: number;
  userId: string;
  asset: string;
  network: string;
  address: string;
  provider: string;
  providerAddressId: string;
  createdAt: Date;
}

export interface DepositRow {
  id: string;
  seq: number;
  provider: string;
  providerDepositId: string;
  addressId: string;
  userId: string;
  asset: string;
  amount: bigint;
  txHash: string;
  status: 'confirmed' | 'credited';
  createdAt: Date;
  creditedAt: Date | null;
}

export interface QuoteRow {
  id: string;
  userId: string;
  fromAsset: string;
  toAsset: string;
  fromAmount: bigint;
  fee: bigint;
  toAmount: bigint;
  rate: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface SwapRow extends QuoteRow {
  swapId: string;
  seq: number;
  swappedAt: Date;
}

const ADDRESS = `id, seq::int AS seq, user_id AS "userId", asset, network, address, provider, provider_address_id AS "providerAddressId", created_at AS "createdAt"`;
const DEPOSIT = `id, seq::int AS seq, provider, provider_deposit_id AS "providerDepositId", address_id AS "addressId", user_id AS "userId", asset,
  amount::text AS amount, tx_hash AS "txHash", status, created_at AS "createdAt", credited_at AS "creditedAt"`;
const QUOTE = `q.id, q.user_id AS "userId", q.from_asset AS "fromAsset", q.to_asset AS "toAsset", q.from_amount::text AS "fromAmount", q.fee::text AS fee,
  q.to_amount::text AS "toAmount", q.rate, q.expires_at AS "expiresAt", q.created_at AS "createdAt"`;

type Raw = Record<string, unknown>;
const deposit = (r: Raw) => ({ ...r, amount: BigInt(r.amount as string) }) as DepositRow;
const quote = (r: Raw) =>
  ({ ...r, fromAmount: BigInt(r.fromAmount as string), fee: BigInt(r.fee as string), toAmount: BigInt(r.toAmount as string) }) as QuoteRow;

/** SQL of the crypto schema. */
export class CryptoStore {
  constructor(readonly store: Store) {}

  /** The user's address for the asset: the one inserted now, or the one a concurrent request inserted first. */
  async insertAddress(a: Omit<AddressRow, 'seq' | 'createdAt'>): Promise<AddressRow> {
    await this.store.pool.query(
      `INSERT INTO crypto.deposit_address (id, user_id, asset, network, address, provider, provider_address_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, asset) DO NOTHING`,
      [a.id, a.userId, a.asset, a.network, a.address, a.provider, a.providerAddressId],
    );
    return (await this.address(a.userId, a.asset))!;
  }

  async address(userId: string, asset: string): Promise<AddressRow | undefined> {
    const { rows } = await this.store.pool.query(`SELECT ${ADDRESS} FROM crypto.deposit_address WHERE user_id = $1 AND asset = $2`, [userId, asset]);
    return rows[0] as AddressRow | undefined;
  }

  async addressByValue(provider: string, address: string): Promise<AddressRow | undefined> {
    const { rows } = await this.store.pool.query(`SELECT ${ADDRESS} FROM crypto.deposit_address WHERE provider = $1 AND address = $2`, [provider, address]);
    return rows[0] as AddressRow | undefined;
  }

  async addressesOf(userId: string): Promise<AddressRow[]> {
    const { rows } = await this.store.pool.query(`SELECT ${ADDRESS} FROM crypto.deposit_address WHERE user_id = $1 ORDER BY asset`, [userId]);
    return rows as AddressRow[];
  }

  async allAddresses(limit: number): Promise<AddressRow[]> {
    const { rows } = await this.store.pool.query(`SELECT ${ADDRESS} FROM crypto.deposit_address ORDER BY created_at DESC, seq DESC LIMIT $1`, [limit]);
    return rows as AddressRow[];
  }

  /** Records a confirmed deposit once (a redelivery returns the first row). */
  async recordDeposit(d: Omit<DepositRow, 'seq' | 'createdAt' | 'creditedAt' | 'status'>): Promise<DepositRow> {
    const { rows } = await this.store.pool.query<Raw>(
      `INSERT INTO crypto.deposit (id, provider, provider_deposit_id, address_id, user_id, asset, amount, tx_hash, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'confirmed')
       ON CONFLICT (provider, provider_deposit_id) DO UPDATE SET provider = EXCLUDED.provider RETURNING ${DEPOSIT}`,
      [d.id, d.provider, d.providerDepositId, d.addressId, d.userId, d.asset, d.amount.toString(), d.txHash],
    );
    return deposit(rows[0]);
  }

  async markCredited(id: string): Promise<DepositRow> {
    const { rows } = await this.store.pool.query<Raw>(
      `UPDATE crypto.deposit SET status = 'credited', credited_at = COALESCE(credited_at, now()) WHERE id = $1 RETURNING ${DEPOSIT}`,
      [id],
    );
    return deposit(rows[0]);
  }

  async depositsOf(userId: string, page: KeysetPage): Promise<DepositRow[]> {
    const { rows } = await this.store.pool.query<Raw>(
      `SELECT ${DEPOSIT} FROM crypto.deposit WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, seq) < ($2, $3))
       ORDER BY created_at DESC, seq DESC LIMIT $4`,
      [userId, page.after?.at ?? null, page.after?.seq ?? 0, page.limit],
    );
    return rows.map(deposit);
  }

  async allDeposits(limit: number): Promise<DepositRow[]> {
    const { rows } = await this.store.pool.query<Raw>(`SELECT ${DEPOSIT} FROM crypto.deposit ORDER BY created_at DESC, seq DESC LIMIT $1`, [limit]);
    return rows.map(deposit);
  }

  async insertQuote(q: Omit<QuoteRow, 'createdAt'>): Promise<QuoteRow> {
    const { rows } = await this.store.pool.query<Raw>(
      `INSERT INTO crypto.quote AS q (id, user_id, from_asset, to_asset, from_amount, fee, to_amount, rate, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${QUOTE}`,
      [q.id, q.userId, q.fromAsset, q.toAsset, q.fromAmount.toString(), q.fee.toString(), q.toAmount.toString(), q.rate, q.expiresAt],
    );
    return quote(rows[0]);
  }

  async quote(id: string): Promise<QuoteRow | undefined> {
    const { rows } = await this.store.pool.query<Raw>(`SELECT ${QUOTE} FROM crypto.quote q WHERE q.id = $1`, [id]);
    return rows[0] ? quote(rows[0]) : undefined;
  }

  /** The swap of a quote: inserted now, or the one recorded before (a retry). */
  async recordSwap(swapId: string, quoteId: string, userId: string): Promise<SwapRow> {
    await this.store.pool.query('INSERT INTO crypto.swap (id, quote_id, user_id) VALUES ($1, $2, $3) ON CONFLICT (quote_id) DO NOTHING', [
      swapId,
      quoteId,
      userId,
    ]);
    return (await this.swaps('s.quote_id = $1', [quoteId], 1))[0];
  }

  async swapsOf(userId: string, page: KeysetPage): Promise<SwapRow[]> {
    return this.swaps(
      's.user_id = $1 AND ($2::timestamptz IS NULL OR (s.created_at, s.seq) < ($2, $3))',
      [userId, page.after?.at ?? null, page.after?.seq ?? 0],
      page.limit,
    );
  }

  async allSwaps(limit: number): Promise<SwapRow[]> {
    return this.swaps('true', [], limit);
  }

  private async swaps(where: string, params: unknown[], limit: number): Promise<SwapRow[]> {
    const { rows } = await this.store.pool.query<Raw>(
      `SELECT ${QUOTE}, s.id AS "swapId", s.seq::int AS seq, s.created_at AS "swappedAt"
         FROM crypto.swap s JOIN crypto.quote q ON q.id = s.quote_id WHERE ${where}
        ORDER BY s.created_at DESC, s.seq DESC LIMIT $${params.length + 1}`,
      [...params, limit],
    );
    return rows.map((r: Raw) => ({ ...quote(r), swapId: r.swapId, seq: r.seq, swappedAt: r.swappedAt }) as SwapRow);
  }
}
