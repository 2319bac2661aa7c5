import { inTransaction } from '../../../../lib/database';
import { DomainError, badInput } from '../../../../lib/errors';
import { derivedUuid, type IdempotentRequests } from '../../../../lib/idempotency';
import { exponentOf, toMinor, toMoney } from '../../kernel/currencies';
import type { ObjectStore } from '../../../../lib/object-store';
import type { AuditDb, AuditOutbox } from '../../kernel/audit';
import type { CommerceStore, OrderRow, ProductRow } from '../store/commerce-store';
import { limitsOf, type LedgerClient, type LedgerLimits } from '../../kernel/ledger-client';
import { IMAGE_TYPES, type OrderState } from './catalogue';
import {
  actorLabel,
  alreadyRefunded,
  assertMoneyDecider,
  auditDecision,
  assertId,
  invalidState,
  lockTransfer,
  missing,
  pageOf,
  pageRequest,
  text,
  type Actor,
} from './common';
import type { Rewards } from './rewards';

/** The ledger code of a shop order's payment. */
export const SHOP_PAYMENT = 'shop_order_payment';

/** The shop's revenue account per currency: what paid orders credit and refunds debit. */
export const SALES_ACCOUNT = 'commerce:sales';
const MAX_QUANTITY = 100;
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

export interface ProductInput {
  name: string;
  description?: string | null;
  price: string;
  currency: string;
  stock: number;
  active?: boolean | null;
}

export const outOfStock = (available: number) => new DomainError('OUT_OF_STOCK', 409, `Only ${available} left in stock.`, { available });

/**
 * Products, the cart and orders. Checkout creates a `pending` order with price snapshots and empties
 * the cart in one transaction, and neither charges the wallet nor reserves stock (the contract's
 * transition). Paying takes the stock and moves the money (one ledger transfer, id derived from the
 * order); fulfilment and cancellation follow; every move is a row of the order's history.
 */
export class Shop {
  constructor(
    private readonly store: CommerceStore,
    private readonly ledger: LedgerClient,
    private readonly objects: ObjectStore,
    private readonly idempotency: IdempotentRequests,
    private readonly rewards: Rewards,
    private readonly audit: AuditOutbox,
  ) {}

  // ---- products

  products(opts: { activeOnly: boolean; search?: string | null; limit?: number | null; cursor?: string | null }) {
    const page = pageRequest(opts.limit, opts.cursor);
    const search = opts.search?.trim() ? opts.search.trim().slice(0, 100) : undefined;
    return this.store
      .products({ activeOnly: opts.activeOnly, search, limit: page.limit + 1, position: page.position })
      .then((rows) => pageOf(rows, page.limit));
  }

  async product(id: string, activeOnly: boolean): Promise<ProductRow> {
    assertId(id, 'product');
    const p = await this.store.product(id);
    if (!p || (activeOnly && !p.active)) throw missing('product');
    return p;
  }

  private productFields(input: ProductInput) {
    const currency = input.currency?.toUpperCase() ?? '';
    exponentOf(currency);
    const price = toMinor(input.price, currency);
    if (price <= 0n) throw badInput('price is positive.', { price: ['A positive amount.'] });
    if (!Number.isInteger(input.stock) || input.stock < 0 || input.stock > 1_000_000)
      throw badInput('stock is a whole number from 0 to 1,000,000.', { stock: ['0 to 1,000,000.'] });
    return {
      name: text(input.name, 'name', { max: 200 }),
      description: text(input.description ?? '', 'description', { min: 0, max: 2000 }),
      price,
      currency,
      stock: input.stock,
      active: input.active ?? true,
    };
  }

  /** An operator's change of the catalogue, audited in its transaction (none: the host's own seeding). */
  private audited<T extends ProductRow | undefined>(actor: Actor | undefined, action: string, work: (c: AuditDb) => Promise<T>): Promise<T> {
    return inTransaction(this.store.pool, async (c) => {
      const row = await work(c);
      if (row && actor)
        await auditDecision(this.audit, c, actor, action, {
          product: row.id,
          name: row.name,
          price: row.price.toString(),
          currency: row.currency,
          active: row.active,
        });
      return row;
    });
  }

  createProduct(input: ProductInput, actor?: Actor) {
    const fields = this.productFields(input);
    return this.audited(actor, 'product.created', (c) => this.store.insertProduct(fields, c));
  }

  async updateProduct(id: string, input: ProductInput, actor?: Actor) {
    assertId(id, 'product');
    const fields = this.productFields(input);
    const row = await this.audited(actor, 'product.updated', (c) => this.store.updateProduct(id, fields, c));
    if (!row) throw missing('product');
    return row;
  }

  /** Stores the image in the object store (type and size checked) and points the product at it. */
  async setImage(id: string, contentType: string, base64: string, actor?: Actor) {
    await this.product(id, false);
    if (!(IMAGE_TYPES as readonly string[]).includes(contentType))
      throw badInput(`An image is one of ${IMAGE_TYPES.join(', ')}.`, { content_type: [`One of ${IMAGE_TYPES.join(', ')}.`] });
    const bytes = Buffer.from(base64, 'base64');
    if (!bytes.length || bytes.length > MAX_IMAGE_BYTES) throw badInput('An image is 1 byte to 2 MiB.', { content: ['1 byte to 2 MiB (base64).'] });
    const key = `commerce/products/${id}/${derivedUuid(id, bytes.toString('base64'))}`;
    await this.objects.put(key, bytes, { contentType });
    return this.audited(actor, 'product.image_set', (c) => this.store.setProductImage(id, key, contentType, c));
  }

  // ---- cart

  cart(userId: string) {
    return this.store.cart(userId);
  }

  /**
   * Adds a product: it must be on sale, in the cart's currency, with enough stock for the line's new
   * quantity; `expectedPrice` (what the client showed) must still be the price.
   */
  async addToCart(userId: string, productId: string, quantity: number, expectedPrice?: string | null) {
    checkQuantity(quantity);
    const product = await this.product(productId, true);
    if (expectedPrice !== undefined && expectedPrice !== null && toMinor(expectedPrice, product.currency) !== product.price) {
      throw new DomainError('PRICE_CHANGED', 409, 'The price of the product has changed.', { price: toMoney(product.price, product.currency) });
    }
    const lines = await this.store.cart(userId);
    const other = lines.find((l) => l.currency !== product.currency);
    if (other)
      throw new DomainError('CURRENCY_MISMATCH', 409, `The cart holds ${other.currency} products; check it out before adding ${product.currency} ones.`);
    const current = lines.find((l) => l.productId === productId)?.quantity ?? 0;
    if (current + quantity > MAX_QUANTITY) throw badInput(`At most ${MAX_QUANTITY} of a product per order.`, { quantity: [`At most ${MAX_QUANTITY}.`] });
    if (current + quantity > product.stock) throw outOfStock(product.stock);
    await this.store.addToCart(userId, productId, quantity);
    return this.store.cart(userId);
  }

  async changeCartItem(userId: string, itemId: string, quantity: number) {
    assertId(itemId, 'cart item');
    checkQuantity(quantity);
    const line = await this.store.cartItem(userId, itemId);
    if (!line) throw missing('cart item');
    if (quantity > line.stock) throw outOfStock(line.stock);
    await this.store.setCartQuantity(userId, itemId, quantity);
    return this.store.cart(userId);
  }

  async removeCartItem(userId: string, itemId: string) {
    assertId(itemId, 'cart item');
    if (!(await this.store.removeCartItem(userId, itemId))) throw missing('cart item');
    return this.store.cart(userId);
  }

  // ---- checkout and orders

  /** Cart with items → a `pending` order (price snapshots), cart emptied; no charge, no stock taken. One transaction. */
  checkout(userId: string, key: string | null | undefined): Promise<OrderRow> {
    return this.idempotency.run({ owner: `user:${userId}`, key, operation: 'shopCheckout', input: {} }, () =>
      inTransaction(this.store.pool, async (c) => {
        const lines = await this.store.cart(userId, c, true);
        if (!lines.length) throw new DomainError('CART_EMPTY', 409, 'The cart is empty.');
        for (const l of lines) {
          if (!l.active) throw new DomainError('PRODUCT_UNAVAILABLE', 409, `${l.name} is no longer on sale; remove it from the cart.`);
          if (l.quantity > l.stock) throw outOfStock(l.stock);
        }
        const total = lines.reduce((sum, l) => sum + l.price * BigInt(l.quantity), 0n);
        const order = await this.store.insertOrder(
          c,
          { userId, currency: lines[0].currency, total },
          lines.map((l) => ({ productId: l.productId, name: l.name, unitPrice: l.price, quantity: l.quantity })),
        );
        await this.store.recordOrderCreated(c, order.id, `user:${userId}`);
        await this.store.emptyCart(c, userId);
        return order;
      }),
    );
  }

  async order(id: string, userId?: string): Promise<OrderRow> {
    assertId(id, 'order');
    const o = await this.store.order(id);
    if (!o || (userId && o.userId !== userId)) throw missing('order');
    return o;
  }

  async orders(opts: { userId?: string; status?: string | null; limit?: number | null; cursor?: string | null }) {
    const page = pageRequest(opts.limit, opts.cursor);
    const rows = await this.store.orders({ userId: opts.userId, status: opts.status ?? undefined, limit: page.limit + 1, position: page.position });
    return pageOf(rows, page.limit);
  }

  orderItems(ids: string[]) {
    return this.store.orderItems(ids);
  }

  orderHistory(ids: string[]) {
    return this.store.orderHistory(ids);
  }

  /**
   * pending → paid: stock taken and the wallet debited to the shop's sales account in one step, held
   * to the payer's KYC limits
   * (the order row is locked meanwhile, so a concurrent cancel waits). The transfer id is derived
   * from the order: a retry after a crash answers `exists` and moves nothing twice.
   */
  pay(user: LedgerLimits, orderId: string, key: string | null | undefined): Promise<OrderRow> {
    const { userId } = user;
    return this.idempotency.run({ owner: `user:${userId}`, key, operation: 'payShopOrder', input: { orderId } }, async () => {
      await this.order(orderId, userId);
      const paid = await inTransaction(this.store.pool, async (c) => {
        const order = (await this.store.order(orderId, c, true))!;
        if (order.status !== 'pending') throw invalidState('order', order.status, 'paid');
        const items = (await this.store.orderItems([orderId], c)).map((i) => ({ productId: i.productId, quantity: i.quantity }));
        if (!(await this.store.takeStock(c, items))) throw new DomainError('OUT_OF_STOCK', 409, 'A product of the order is out of stock.', { available: 0 });
        const [wallet, sales] = await Promise.all([this.ledger.wallet(user.userId, order.currency), this.ledger.system(order.currency, SALES_ACCOUNT)]);
        const transferId = derivedUuid('shop-order-payment', orderId);
        await this.ledger.transfers(
          [
            {
              id: transferId,
              debitAccountId: wallet,
              creditAccountId: sales,
              amount: toMoney(order.total, order.currency).amount,
              code: SHOP_PAYMENT,
              metadata: { orderId },
            },
          ],
          limitsOf(user),
        );
        // the points are owed with the payment, in its transaction; granted once it commits (or by the drain job)
        await this.rewards.owe(c, userId, orderId, order.total, order.currency, user.kycLevel !== 'none');
        return this.store.moveOrder(c, orderId, 'pending', 'paid', `user:${userId}`, { paymentTransferId: transferId });
      });
      await this.rewards.grantOwed(paid.id);
      return paid;
    });
  }

  /** paid → fulfilled (an administrator, once the goods are handed over); a refunded or cancelled order is not (409). */
  fulfil(orderId: string, actor: Actor): Promise<OrderRow> {
    return this.move(orderId, ['paid'], 'fulfilled', 'fulfilled', actor);
  }

  /**
   * pending | paid → cancelled. The user may cancel a pending order; an administrator also a paid
   * one, refunded by a reversing transfer (sales → wallet), its stock returned and the points it
   * earned taken back; not one whose payment a dispute refunded already (409 ALREADY_REFUNDED).
   */
  async cancel(orderId: string, actor: Actor): Promise<OrderRow> {
    if (actor.role === 'user') await this.order(orderId, actor.userId);
    else assertId(orderId, 'order');
    return inTransaction(this.store.pool, async (c) => {
      const order = await this.store.order(orderId, c, true);
      if (!order) throw missing('order');
      const allowed: OrderState[] = actor.role === 'admin' ? ['pending', 'paid'] : ['pending'];
      if (!(allowed as string[]).includes(order.status)) throw invalidState('order', order.status, 'cancelled');
      if (order.status === 'paid') {
        // a refund is a money decision: a superuser's, not on their own order (403)
        assertMoneyDecider(actor, [order.userId]);
        // the order row and the payment's lock are held: a dispute resolving meanwhile waits, and sees the refund;
        // the ledger refuses a second reversal of the payment in any case (409 ALREADY_REVERSED)
        if (order.paymentTransferId) {
          await lockTransfer(c, order.paymentTransferId);
          if ((await this.store.transferReversed(order.paymentTransferId, c)) || (await this.ledger.reversalOf(order.paymentTransferId)))
            throw alreadyRefunded('by a dispute');
        }
        const [wallet, sales] = await Promise.all([this.ledger.wallet(order.userId, order.currency), this.ledger.system(order.currency, SALES_ACCOUNT)]);
        const refundId = derivedUuid('shop-order-refund', orderId);
        await this.store.returnStock(
          c,
          (await this.store.orderItems([orderId], c)).map((i) => ({ productId: i.productId, quantity: i.quantity })),
        );
        await this.ledger.transfers([
          {
            id: refundId,
            debitAccountId: sales,
            creditAccountId: wallet,
            amount: toMoney(order.total, order.currency).amount,
            code: 'shop_order_refund',
            metadata: { orderId, reverses: order.paymentTransferId },
            reverses: order.paymentTransferId ?? undefined,
          },
        ]);
        await this.rewards.reverseOrder(c, orderId);
        const refunded = await this.store.moveOrder(c, orderId, 'paid', 'cancelled', actorLabel(actor), { refundTransferId: refundId });
        await auditDecision(this.audit, c, actor, 'order.cancelled', { ...orderDetail(order, 'cancelled'), refund: refundId });
        return refunded;
      }
      const cancelled = await this.store.moveOrder(c, orderId, order.status, 'cancelled', actorLabel(actor));
      await auditDecision(this.audit, c, actor, 'order.cancelled', orderDetail(order, 'cancelled'));
      return cancelled;
    });
  }

  private move(orderId: string, from: OrderState[], to: OrderState, verb: string, actor: Actor): Promise<OrderRow> {
    assertId(orderId, 'order');
    return inTransaction(this.store.pool, async (c) => {
      const order = await this.store.order(orderId, c, true);
      if (!order) throw missing('order');
      if (!(from as string[]).includes(order.status)) throw invalidState('order', order.status, verb);
      const moved = await this.store.moveOrder(c, orderId, order.status, to, actorLabel(actor));
      await auditDecision(this.audit, c, actor, `order.${to}`, orderDetail(order, to));
      return moved;
    });
  }
}

/** What an audit entry of an order decision says: the order, its buyer and total, old → new status. */
function orderDetail(o: OrderRow, to: string) {
  return { order: o.id, user: o.userId, total: toMoney(o.total, o.currency).amount, currency: o.currency, from: o.status, to };
}

function checkQuantity(quantity: number): void {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY)
    throw badInput(`quantity is a whole number from 1 to ${MAX_QUANTITY}.`, { quantity: [`1 to ${MAX_QUANTITY}.`] });
}
