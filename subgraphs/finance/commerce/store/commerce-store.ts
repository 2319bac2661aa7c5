import type pg from 'pg';
import type { Store } from '../../../../lib/database';

/** The commerce schema's SQL (nothing else here writes SQL). Money: bigint minor units, as pg returns them (text) → bigint. */

type Db = pg.Pool | pg.PoolClient;

export interface ProductRow {
  id: string;
  name: string;
  description: string;
  price: bigint;
  currency: string;
  stock: number;
  active: boolean;
  imageKey: string | null;
  imageType: string | null;
  createdAt: Date;
}

export interface CartLine {
  id: string;
  productId: string;
  name: string;
  price: bigint;
  currency: string;
  stock: number;
  active: boolean;
  quantity: number;
  addedAt: Date;
}

export interface OrderRow {
  id: string;
  userId: string;
  status: string;
  currency: string;
  total: bigint;
  paymentTransferId: string | null;
  refundTransferId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface OrderItemRow {
  orderId: string;
  productId: string;
  name: string;
  unitPrice: bigint;
  quantity: number;
}

export interface HistoryRow {
  fromStatus: string | null;
  toStatus: string;
  actor: string;
  note: string | null;
  at: Date;
}

export interface UtilityRow {
  id: string;
  userId: string;
  kind: string;
  status: string;
  providerCode: string;
  country: string;
  phoneNumber: string | null;
  accountNumber: string | null;
  planId: string | null;
  amount: bigint;
  currency: string;
  dispatchedAt: Date | null;
  createdAt: Date;
}

export interface GiftCardOrderRow {
  id: string;
  userId: string;
  brandId: string;
  country: string;
  denomination: bigint;
  currency: string;
  quantity: number;
  recipientEmail: string | null;
  fulfilment: string;
  createdAt: Date;
}

export interface DisputeRow {
  id: string;
  userId: string;
  transferId: string;
  amount: bigint;
  currency: string;
  reason: string;
  description: string;
  status: string;
  resolutionNote: string | null;
  reversalTransferId: string | null;
  /** A refund from the platform's dispute-loss account proposed by this operator (node user), awaiting a second one. */
  refundProposedById: string | null;
  refundProposedBy: string | null;
  refundProposedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AttachmentRow {
  id: string;
  disputeId: string;
  objectKey: string;
  filename: string;
  contentType: string;
  size: number;
  createdAt: Date;
}

export interface MessageRow {
  id: number;
  disputeId: string;
  authorRole: string;
  author: string;
  body: string;
  createdAt: Date;
}

export interface RewardEventRow {
  id: string;
  userId: string;
  rule: string;
  points: bigint;
  reference: string;
  createdAt: Date;
}

/** A qualifying transaction whose points are owed (the rewards outbox), until its grant is recorded. */
export interface RewardDueRow {
  reference: string;
  userId: string;
  amount: bigint;
  currency: string;
  createdAt: Date;
  attempts: number;
  lastError: string | null;
  grantedAt: Date | null;
  /** What the transaction earns, fixed before the first grant (null until then). */
  points: bigint | null;
  /** The payment was refunded or reversed: nothing more is granted, what was is taken back. */
  reversedAt: Date | null;
  /** The payer had passed KYC when paying: only such an order pays the referral bonuses. */
  kycPassed: boolean;
}

export interface ReferralRow {
  referredUserId: string;
  referrerUserId: string;
  createdAt: Date;
  rewardedAt: Date | null;
  /** The paid order whose grant paid the bonuses (they go back if it is refunded). */
  rewardedOrderId: string | null;
}

/** A keyset position: (created_at, id) of the last row of the previous page. */
export interface Position {
  at: Date;
  id: string;
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const MONEY_COLUMNS = new Set(['price', 'total', 'amount', 'denomination', 'unit_price', 'points']);

function rowOf<T>(r: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [camel(k), MONEY_COLUMNS.has(k) && v !== null ? BigInt(v as string) : v])) as T;
}
const rowsOf = <T>(res: pg.QueryResult) => res.rows.map((r) => rowOf<T>(r as Record<string, unknown>));

const after = (position: Position | undefined, alias = '') =>
  position ? `AND (${alias}created_at, ${alias}id) < ($2::timestamptz, $3::uuid)` : 'AND $2::timestamptz IS NULL AND $3::uuid IS NULL';
const positionArgs = (position: Position | undefined) => [position?.at ?? null, position?.id ?? null];

export class CommerceStore {
  readonly pool: pg.Pool;

  constructor(readonly store: Store) {
    this.pool = store.pool;
  }

  // ---- products

  async products(opts: { activeOnly: boolean; search?: string; limit: number; position?: Position }): Promise<ProductRow[]> {
    const res = await this.pool.query(
      `SELECT * FROM commerce.product WHERE ($1::boolean = false OR active) ${after(opts.position)}
         AND ($4::text IS NULL OR name ILIKE '%' || $4 || '%' OR description ILIKE '%' || $4 || '%')
       ORDER BY created_at DESC, id DESC LIMIT $5`,
      [opts.activeOnly, ...positionArgs(opts.position), opts.search ?? null, opts.limit],
    );
    return rowsOf(res);
  }

  async product(id: string, db: Db = this.pool): Promise<ProductRow | undefined> {
    return rowsOf<ProductRow>(await db.query('SELECT * FROM commerce.product WHERE id = $1', [id]))[0];
  }

  async productCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM commerce.product');
    return rows[0].n;
  }

  async insertProduct(
    p: { name: string; description: string; price: bigint; currency: string; stock: number; active: boolean },
    db: Pick<pg.PoolClient, 'query'> = this.pool,
  ): Promise<ProductRow> {
    const res = await db.query('INSERT INTO commerce.product (name, description, price, currency, stock, active) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *', [
      p.name,
      p.description,
      p.price.toString(),
      p.currency,
      p.stock,
      p.active,
    ]);
    return rowsOf<ProductRow>(res)[0];
  }

  async updateProduct(
    id: string,
    p: { name: string; description: string; price: bigint; currency: string; stock: number; active: boolean },
    db: Pick<pg.PoolClient, 'query'> = this.pool,
  ): Promise<ProductRow | undefined> {
    const res = await db.query(
      `UPDATE commerce.product SET name = $2, description = $3, price = $4, currency = $5, stock = $6, active = $7, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [id, p.name, p.description, p.price.toString(), p.currency, p.stock, p.active],
    );
    return rowsOf<ProductRow>(res)[0];
  }

  async setProductImage(id: string, key: string, contentType: string, db: Pick<pg.PoolClient, 'query'> = this.pool): Promise<ProductRow | undefined> {
    const res = await db.query('UPDATE commerce.product SET image_key = $2, image_type = $3, updated_at = now() WHERE id = $1 RETURNING *', [
      id,
      key,
      contentType,
    ]);
    return rowsOf<ProductRow>(res)[0];
  }

  /** Takes `quantity` of each product from stock; false (and nothing taken) when one has too little. */
  async takeStock(c: pg.PoolClient, items: { productId: string; quantity: number }[]): Promise<boolean> {
    for (const item of [...items].sort((a, b) => a.productId.localeCompare(b.productId))) {
      const res = await c.query('UPDATE commerce.product SET stock = stock - $2, updated_at = now() WHERE id = $1 AND stock >= $2', [
        item.productId,
        item.quantity,
      ]);
      if (!res.rowCount) return false;
    }
    return true;
  }

  async returnStock(c: pg.PoolClient, items: { productId: string; quantity: number }[]): Promise<void> {
    for (const item of [...items].sort((a, b) => a.productId.localeCompare(b.productId)))
      await c.query('UPDATE commerce.product SET stock = stock + $2, updated_at = now() WHERE id = $1', [item.productId, item.quantity]);
  }

  // ---- cart

  async cart(userId: string, db: Db = this.pool, lock = false): Promise<CartLine[]> {
    const res = await db.query(
      `SELECT c.id, c.product_id, p.name, p.price, p.currency, p.stock, p.active, c.quantity, c.added_at
         FROM commerce.cart_item c JOIN commerce.product p ON p.id = c.product_id
        WHERE c.user_id = $1 ORDER BY c.added_at, c.id ${lock ? 'FOR UPDATE OF c' : ''}`,
      [userId],
    );
    return rowsOf(res);
  }

  /** Adds to the line of the product (created on first add); answers the line's new quantity. */
  async addToCart(userId: string, productId: string, quantity: number): Promise<{ id: string; quantity: number }> {
    const res = await this.pool.query(
      `INSERT INTO commerce.cart_item (user_id, product_id, quantity) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = commerce.cart_item.quantity + EXCLUDED.quantity
       RETURNING id, quantity`,
      [userId, productId, quantity],
    );
    return res.rows[0] as { id: string; quantity: number };
  }

  async setCartQuantity(userId: string, itemId: string, quantity: number): Promise<boolean> {
    const res = await this.pool.query('UPDATE commerce.cart_item SET quantity = $3 WHERE user_id = $1 AND id = $2', [userId, itemId, quantity]);
    return Boolean(res.rowCount);
  }

  async removeCartItem(userId: string, itemId: string): Promise<boolean> {
    const res = await this.pool.query('DELETE FROM commerce.cart_item WHERE user_id = $1 AND id = $2', [userId, itemId]);
    return Boolean(res.rowCount);
  }

  async cartItem(userId: string, itemId: string): Promise<CartLine | undefined> {
    return (await this.cart(userId)).find((l) => l.id === itemId);
  }

  async emptyCart(c: pg.PoolClient, userId: string): Promise<void> {
    await c.query('DELETE FROM commerce.cart_item WHERE user_id = $1', [userId]);
  }

  // ---- orders

  async insertOrder(c: pg.PoolClient, order: { userId: string; currency: string; total: bigint }, items: OrderItemRow[] | Omit<OrderItemRow, 'orderId'>[]) {
    const res = await c.query("INSERT INTO commerce.shop_order (user_id, status, currency, total) VALUES ($1, 'pending', $2, $3) RETURNING *", [
      order.userId,
      order.currency,
      order.total.toString(),
    ]);
    const row = rowsOf<OrderRow>(res)[0];
    for (const item of items)
      await c.query('INSERT INTO commerce.order_item (order_id, product_id, name, unit_price, quantity) VALUES ($1, $2, $3, $4, $5)', [
        row.id,
        item.productId,
        item.name,
        item.unitPrice.toString(),
        item.quantity,
      ]);
    return row;
  }

  async order(id: string, db: Db = this.pool, lock = false): Promise<OrderRow | undefined> {
    return rowsOf<OrderRow>(await db.query(`SELECT * FROM commerce.shop_order WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`, [id]))[0];
  }

  /** The order a ledger transfer paid (locked until `db`'s transaction ends with `lock`), if it is a shop payment. */
  async orderPaidBy(transferId: string, db: Db = this.pool, lock = false): Promise<OrderRow | undefined> {
    return rowsOf<OrderRow>(await db.query(`SELECT * FROM commerce.shop_order WHERE payment_transfer_id = $1 ${lock ? 'FOR UPDATE' : ''}`, [transferId]))[0];
  }

  async orders(opts: { userId?: string; status?: string; limit: number; position?: Position }): Promise<OrderRow[]> {
    const res = await this.pool.query(
      `SELECT * FROM commerce.shop_order WHERE ($1::uuid IS NULL OR user_id = $1) ${after(opts.position)}
         AND ($4::text IS NULL OR status = $4) ORDER BY created_at DESC, id DESC LIMIT $5`,
      [opts.userId ?? null, ...positionArgs(opts.position), opts.status ?? null, opts.limit],
    );
    return rowsOf(res);
  }

  async orderItems(orderIds: string[], client?: pg.PoolClient): Promise<OrderItemRow[]> {
    if (!orderIds.length) return [];
    return rowsOf(await (client ?? this.pool).query('SELECT * FROM commerce.order_item WHERE order_id = ANY($1::uuid[]) ORDER BY name', [orderIds]));
  }

  async orderHistory(orderIds: string[]): Promise<(HistoryRow & { orderId: string })[]> {
    if (!orderIds.length) return [];
    return rowsOf(
      await this.pool.query(
        'SELECT order_id, from_status, to_status, actor, NULL AS note, at FROM commerce.order_event WHERE order_id = ANY($1::uuid[]) ORDER BY id',
        [orderIds],
      ),
    );
  }

  async moveOrder(
    c: pg.PoolClient,
    id: string,
    from: string | null,
    to: string,
    actor: string,
    transfers: { paymentTransferId?: string; refundTransferId?: string } = {},
  ): Promise<OrderRow> {
    const res = await c.query(
      `UPDATE commerce.shop_order SET status = $2, updated_at = now(),
              payment_transfer_id = COALESCE($3, payment_transfer_id), refund_transfer_id = COALESCE($4, refund_transfer_id)
        WHERE id = $1 RETURNING *`,
      [id, to, transfers.paymentTransferId ?? null, transfers.refundTransferId ?? null],
    );
    await c.query('INSERT INTO commerce.order_event (order_id, from_status, to_status, actor) VALUES ($1, $2, $3, $4)', [id, from, to, actor]);
    return rowsOf<OrderRow>(res)[0];
  }

  async recordOrderCreated(c: pg.PoolClient, id: string, actor: string): Promise<void> {
    await c.query("INSERT INTO commerce.order_event (order_id, from_status, to_status, actor) VALUES ($1, NULL, 'pending', $2)", [id, actor]);
  }

  // ---- utilities

  async insertUtilityRequest(r: Omit<UtilityRow, 'id' | 'createdAt' | 'dispatchedAt'>): Promise<UtilityRow> {
    const res = await this.pool.query(
      `INSERT INTO commerce.utility_request (user_id, kind, status, provider_code, country, phone_number, account_number, plan_id, amount, currency)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
      [r.userId, r.kind, r.status, r.providerCode, r.country, r.phoneNumber, r.accountNumber, r.planId, r.amount.toString(), r.currency],
    );
    return rowsOf<UtilityRow>(res)[0];
  }

  async utilityRequests(opts: { userId?: string; limit: number; position?: Position }): Promise<UtilityRow[]> {
    const res = await this.pool.query(
      `SELECT * FROM commerce.utility_request WHERE ($1::uuid IS NULL OR user_id = $1) ${after(opts.position)} ORDER BY created_at DESC, id DESC LIMIT $4`,
      [opts.userId ?? null, ...positionArgs(opts.position), opts.limit],
    );
    return rowsOf(res);
  }

  // ---- gift cards

  async insertGiftCardOrder(r: Omit<GiftCardOrderRow, 'id' | 'createdAt' | 'fulfilment'>): Promise<GiftCardOrderRow> {
    const res = await this.pool.query(
      `INSERT INTO commerce.gift_card_order (user_id, brand_id, country, denomination, currency, quantity, recipient_email)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [r.userId, r.brandId, r.country, r.denomination.toString(), r.currency, r.quantity, r.recipientEmail],
    );
    return rowsOf<GiftCardOrderRow>(res)[0];
  }

  async giftCardOrders(opts: { userId?: string; limit: number; position?: Position }): Promise<GiftCardOrderRow[]> {
    const res = await this.pool.query(
      `SELECT * FROM commerce.gift_card_order WHERE ($1::uuid IS NULL OR user_id = $1) ${after(opts.position)} ORDER BY created_at DESC, id DESC LIMIT $4`,
      [opts.userId ?? null, ...positionArgs(opts.position), opts.limit],
    );
    return rowsOf(res);
  }

  // ---- disputes

  async insertDispute(
    c: pg.PoolClient,
    d: { userId: string; transferId: string; amount: bigint; currency: string; reason: string; description: string; status: string },
  ): Promise<DisputeRow> {
    const res = await c.query(
      `INSERT INTO commerce.dispute (user_id, transfer_id, amount, currency, reason, description, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [d.userId, d.transferId, d.amount.toString(), d.currency, d.reason, d.description, d.status],
    );
    const row = rowsOf<DisputeRow>(res)[0];
    await c.query('INSERT INTO commerce.dispute_event (dispute_id, from_status, to_status, actor) VALUES ($1, NULL, $2, $3)', [
      row.id,
      d.status,
      `user:${d.userId}`,
    ]);
    return row;
  }

  async insertAttachment(c: pg.PoolClient, a: Omit<AttachmentRow, 'id' | 'createdAt'>): Promise<void> {
    await c.query('INSERT INTO commerce.dispute_attachment (dispute_id, object_key, filename, content_type, size) VALUES ($1, $2, $3, $4, $5)', [
      a.disputeId,
      a.objectKey,
      a.filename,
      a.contentType,
      a.size,
    ]);
  }

  async dispute(id: string, db: Db = this.pool, lock = false): Promise<DisputeRow | undefined> {
    return rowsOf<DisputeRow>(await db.query(`SELECT * FROM commerce.dispute WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`, [id]))[0];
  }

  async disputes(opts: { userId?: string; status?: string; limit: number; position?: Position }): Promise<DisputeRow[]> {
    const res = await this.pool.query(
      `SELECT * FROM commerce.dispute WHERE ($1::uuid IS NULL OR user_id = $1) ${after(opts.position)}
         AND ($4::text IS NULL OR status = $4) ORDER BY created_at DESC, id DESC LIMIT $5`,
      [opts.userId ?? null, ...positionArgs(opts.position), opts.status ?? null, opts.limit],
    );
    return rowsOf(res);
  }

  /** Records the operator who proposed a refund from the dispute-loss account (the dispute row is locked). */
  async proposeDisputeRefund(c: pg.PoolClient, id: string, by: { id: string; name: string }): Promise<DisputeRow> {
    const res = await c.query(
      'UPDATE commerce.dispute SET refund_proposed_by_id = $2, refund_proposed_by = $3, refund_proposed_at = now(), updated_at = now() WHERE id = $1 RETURNING *',
      [id, by.id, by.name],
    );
    return rowsOf<DisputeRow>(res)[0];
  }

  async moveDispute(
    c: pg.PoolClient,
    id: string,
    from: string,
    to: string,
    actor: string,
    extra: { note?: string | null; reversalTransferId?: string } = {},
  ): Promise<DisputeRow> {
    const res = await c.query(
      `UPDATE commerce.dispute SET status = $2, updated_at = now(), resolution_note = COALESCE($3, resolution_note),
              reversal_transfer_id = COALESCE($4, reversal_transfer_id) WHERE id = $1 RETURNING *`,
      [id, to, extra.note ?? null, extra.reversalTransferId ?? null],
    );
    await c.query('INSERT INTO commerce.dispute_event (dispute_id, from_status, to_status, actor, note) VALUES ($1, $2, $3, $4, $5)', [
      id,
      from,
      to,
      actor,
      extra.note ?? null,
    ]);
    return rowsOf<DisputeRow>(res)[0];
  }

  async disputeHistory(id: string): Promise<HistoryRow[]> {
    return rowsOf(await this.pool.query('SELECT from_status, to_status, actor, note, at FROM commerce.dispute_event WHERE dispute_id = $1 ORDER BY id', [id]));
  }

  async attachments(disputeId: string): Promise<AttachmentRow[]> {
    return rowsOf(await this.pool.query('SELECT * FROM commerce.dispute_attachment WHERE dispute_id = $1 ORDER BY created_at, id', [disputeId]));
  }

  async messages(disputeId: string): Promise<MessageRow[]> {
    return rowsOf(await this.pool.query('SELECT * FROM commerce.dispute_message WHERE dispute_id = $1 ORDER BY id', [disputeId]));
  }

  async insertMessage(
    m: { disputeId: string; authorRole: 'user' | 'admin'; author: string; body: string },
    db: Pick<pg.PoolClient, 'query'> = this.pool,
  ): Promise<MessageRow> {
    const res = await db.query('INSERT INTO commerce.dispute_message (dispute_id, author_role, author, body) VALUES ($1, $2, $3, $4) RETURNING *', [
      m.disputeId,
      m.authorRole,
      m.author,
      m.body,
    ]);
    return rowsOf<MessageRow>(res)[0];
  }

  // ---- rewards

  async referralCode(userId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ code: string }>('SELECT code FROM commerce.referral_code WHERE user_id = $1', [userId]);
    return rows[0]?.code;
  }

  /** Keeps the first code stored for the user (a concurrent twin's insert loses quietly). */
  async saveReferralCode(userId: string, code: string): Promise<string> {
    await this.pool.query('INSERT INTO commerce.referral_code (user_id, code) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, code]);
    return (await this.referralCode(userId))!;
  }

  async referrerOfCode(code: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ user_id: string }>('SELECT user_id FROM commerce.referral_code WHERE code = $1', [code]);
    return rows[0]?.user_id;
  }

  /** false when the user was already referred (one referrer per user). */
  async insertReferral(referredUserId: string, referrerUserId: string): Promise<boolean> {
    const res = await this.pool.query('INSERT INTO commerce.referral (referred_user_id, referrer_user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      referredUserId,
      referrerUserId,
    ]);
    return Boolean(res.rowCount);
  }

  async referralOf(referredUserId: string): Promise<ReferralRow | undefined> {
    return rowsOf<ReferralRow>(await this.pool.query('SELECT * FROM commerce.referral WHERE referred_user_id = $1', [referredUserId]))[0];
  }

  async referrals(opts: { referrerUserId?: string; limit: number }): Promise<ReferralRow[]> {
    return rowsOf(
      await this.pool.query('SELECT * FROM commerce.referral WHERE ($1::uuid IS NULL OR referrer_user_id = $1) ORDER BY created_at DESC LIMIT $2', [
        opts.referrerUserId ?? null,
        opts.limit,
      ]),
    );
  }

  /**
   * The referral's bonuses go to `orderId`, the referred user's paid order being granted: its
   * referrer when the referral is not paid yet (or paid by this very order: a retried grant), else
   * nothing. The row stays locked until `c` ends, so of two concurrent first orders one gets it.
   */
  async claimReferralReward(c: pg.PoolClient, referredUserId: string, orderId: string): Promise<string | undefined> {
    const { rows } = await c.query<{ referrer_user_id: string }>(
      `UPDATE commerce.referral SET rewarded_order_id = $2, rewarded_at = COALESCE(rewarded_at, now())
        WHERE referred_user_id = $1 AND ((rewarded_order_id IS NULL AND rewarded_at IS NULL) OR rewarded_order_id = $2)
        RETURNING referrer_user_id`,
      [referredUserId, orderId],
    );
    return rows[0]?.referrer_user_id;
  }

  /** The referrer whose bonus `orderId` paid (locked until `c` ends), if it did. */
  async referralRewardedBy(c: pg.PoolClient, referredUserId: string, orderId: string): Promise<string | undefined> {
    const { rows } = await c.query<{ referrer_user_id: string }>(
      'SELECT referrer_user_id FROM commerce.referral WHERE referred_user_id = $1 AND rewarded_order_id = $2 FOR UPDATE',
      [referredUserId, orderId],
    );
    return rows[0]?.referrer_user_id;
  }

  /** The order that paid the referral's bonuses was refunded: the referred user's next paid order pays them. */
  async releaseReferralReward(c: pg.PoolClient, referredUserId: string, orderId: string): Promise<void> {
    await c.query('UPDATE commerce.referral SET rewarded_order_id = NULL, rewarded_at = NULL WHERE referred_user_id = $1 AND rewarded_order_id = $2', [
      referredUserId,
      orderId,
    ]);
  }

  /** Every movement of these users' points waits for the others (until `c` ends); taken in id order, so two never wait for each other. */
  async lockRewardsOf(c: pg.PoolClient, userIds: string[]): Promise<void> {
    for (const id of [...new Set(userIds)].sort()) await c.query("SELECT pg_advisory_xact_lock(hashtextextended('commerce.rewards:' || $1, 0))", [id]);
  }

  /** Records the points movements the ledger applied; an id seen before (a retry) is kept once. */
  async recordRewardEvents(c: Db, events: Omit<RewardEventRow, 'createdAt'>[]): Promise<void> {
    for (const e of events)
      await c.query('INSERT INTO commerce.reward_event (id, user_id, rule, points, reference) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING', [
        e.id,
        e.userId,
        e.rule,
        e.points.toString(),
        e.reference,
      ]);
  }

  /** Records points owed for a qualifying transaction, inside that transaction (`c`); a second record of one reference is kept once. */
  async insertRewardDue(c: pg.PoolClient, due: { reference: string; userId: string; amount: bigint; currency: string; kycPassed: boolean }): Promise<void> {
    await c.query(
      'INSERT INTO commerce.reward_due (reference, user_id, amount, currency, kyc_passed) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (reference) DO NOTHING',
      [due.reference, due.userId, due.amount.toString(), due.currency, due.kycPassed],
    );
  }

  async rewardDue(reference: string): Promise<RewardDueRow | undefined> {
    return rowsOf<RewardDueRow>(await this.pool.query('SELECT * FROM commerce.reward_due WHERE reference = $1', [reference]))[0];
  }

  /** The owed row, locked until `c` ends: its grant and its reversal wait for each other. */
  async rewardDueForUpdate(c: pg.PoolClient, reference: string): Promise<RewardDueRow | undefined> {
    return rowsOf<RewardDueRow>(await c.query('SELECT * FROM commerce.reward_due WHERE reference = $1 FOR UPDATE', [reference]))[0];
  }

  /** Fixes what the transaction earns, once: the points stored first win (a concurrent or later grant reads them). */
  async setRewardDuePoints(reference: string, points: bigint): Promise<bigint> {
    const set = await this.pool.query<{ points: string }>(
      'UPDATE commerce.reward_due SET points = $2 WHERE reference = $1 AND points IS NULL RETURNING points::text',
      [reference, points.toString()],
    );
    if (set.rows[0]) return BigInt(set.rows[0].points);
    // fixed before (a statement of its own: it sees what a concurrent grant committed)
    const { rows } = await this.pool.query<{ points: string }>('SELECT points::text FROM commerce.reward_due WHERE reference = $1', [reference]);
    return BigInt(rows[0].points);
  }

  /** Owed grants, oldest first (not those whose payment was refunded meanwhile). */
  async rewardsDue(limit: number): Promise<RewardDueRow[]> {
    return rowsOf(
      await this.pool.query('SELECT * FROM commerce.reward_due WHERE granted_at IS NULL AND reversed_at IS NULL ORDER BY created_at, reference LIMIT $1', [
        limit,
      ]),
    );
  }

  async markRewardGranted(c: pg.PoolClient, reference: string): Promise<void> {
    await c.query('UPDATE commerce.reward_due SET granted_at = now(), attempts = attempts + 1, last_error = NULL WHERE reference = $1', [reference]);
  }

  async markRewardReversed(c: pg.PoolClient, reference: string): Promise<void> {
    await c.query('UPDATE commerce.reward_due SET reversed_at = now() WHERE reference = $1', [reference]);
  }

  async markRewardFailed(reference: string, error: string): Promise<void> {
    await this.pool.query('UPDATE commerce.reward_due SET attempts = attempts + 1, last_error = $2 WHERE reference = $1 AND granted_at IS NULL', [
      reference,
      error.slice(0, 500),
    ]);
  }

  /** Whether any of the user's points were ever taken back (a refund or a dispute): only then can they owe points. */
  async hasPointsReversal(c: Db, userId: string): Promise<boolean> {
    const { rows } = await c.query<{ yes: boolean }>("SELECT EXISTS (SELECT 1 FROM commerce.reward_event WHERE user_id = $1 AND rule = 'reversal') AS yes", [
      userId,
    ]);
    return rows[0].yes;
  }

  /** The points balance as the recorded movements sum it: the ledger's points held less the points owed (below zero while owed). */
  async pointsOf(userId: string): Promise<bigint> {
    const { rows } = await this.pool.query<{ total: string }>('SELECT COALESCE(sum(points), 0)::text AS total FROM commerce.reward_event WHERE user_id = $1', [
      userId,
    ]);
    return BigInt(rows[0].total);
  }

  /** Whether a dispute already reversed the transfer (it is reversed at most once). */
  async transferReversed(transferId: string, client?: pg.PoolClient): Promise<boolean> {
    const { rows } = await (client ?? this.pool).query<{ yes: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM commerce.dispute WHERE transfer_id = $1 AND reversal_transfer_id IS NOT NULL) AS yes',
      [transferId],
    );
    return rows[0].yes;
  }

  async rewardEvents(opts: { userId?: string; limit: number }): Promise<RewardEventRow[]> {
    return rowsOf(
      await this.pool.query('SELECT * FROM commerce.reward_event WHERE ($1::uuid IS NULL OR user_id = $1) ORDER BY created_at DESC, id LIMIT $2', [
        opts.userId ?? null,
        opts.limit,
      ]),
    );
  }

  /** Whether the user has a paid (or later) shop order other than `exceptOrderId`: a first qualifying transaction happened. */
  async hasQualifyingTransaction(userId: string, exceptOrderId?: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ yes: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM commerce.order_event e JOIN commerce.shop_order o ON o.id = e.order_id
                       WHERE o.user_id = $1 AND e.to_status = 'paid' AND o.id IS DISTINCT FROM $2::uuid) AS yes`,
      [userId, exceptOrderId ?? null],
    );
    return rows[0].yes;
  }
}
