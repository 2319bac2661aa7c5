import { toMoney } from '../../kernel/currencies';
import type { Biller as BillerEntry, GiftCardBrand as BrandEntry, Operator as OperatorEntry } from '../domain/catalogue';
import { UTILITY_STATES } from '../domain/catalogue';
import type { RewardRulesView } from '../domain/rewards';
import type { CartLine, DisputeRow, GiftCardOrderRow, HistoryRow, OrderItemRow, OrderRow, ProductRow, RewardEventRow, UtilityRow } from '../store/commerce-store';
import type { Cart, Dispute, GiftCardBrand, GiftCardOrder, Product, RewardEvent, RewardRules, ShopOrder, UtilityCatalogue, UtilityRequest } from './types';
import { toMinor } from '../../kernel/currencies';

/** Rows → GraphQL objects (money as decimal strings with their currency). */

export const toProduct = (p: ProductRow): Product => ({
  id: p.id,
  name: p.name,
  description: p.description,
  price: toMoney(p.price, p.currency),
  stock: p.stock,
  active: p.active,
  imageContentType: p.imageType,
  createdAt: p.createdAt,
});

export function toCart(lines: CartLine[]): Cart {
  const total = lines.reduce((s, l) => s + l.price * BigInt(l.quantity), 0n);
  return {
    items: lines.map((l) => ({
      id: l.id,
      productId: l.productId,
      name: l.name,
      unitPrice: toMoney(l.price, l.currency),
      quantity: l.quantity,
      lineTotal: toMoney(l.price * BigInt(l.quantity), l.currency),
      stock: l.stock,
    })),
    total: lines.length ? toMoney(total, lines[0].currency) : null,
  };
}

const toHistory = (h: HistoryRow) => ({ fromStatus: h.fromStatus, toStatus: h.toStatus, actor: h.actor, note: h.note, at: h.at });

export function toOrders(orders: OrderRow[], items: OrderItemRow[], history: (HistoryRow & { orderId: string })[]): ShopOrder[] {
  return orders.map((o) => ({
    id: o.id,
    userId: o.userId,
    status: o.status,
    total: toMoney(o.total, o.currency),
    items: items
      .filter((i) => i.orderId === o.id)
      .map((i) => ({ productId: i.productId, name: i.name, unitPrice: toMoney(i.unitPrice, o.currency), quantity: i.quantity })),
    history: history.filter((h) => h.orderId === o.id).map(toHistory),
    paymentTransactionId: o.paymentTransferId,
    refundTransactionId: o.refundTransferId,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  }));
}

export { toHistory };

export const toUtilityRequest = (r: UtilityRow): UtilityRequest => ({
  id: r.id,
  userId: r.userId,
  kind: r.kind,
  status: r.status,
  provider: r.providerCode,
  country: r.country,
  phoneNumber: r.phoneNumber,
  accountNumber: r.accountNumber,
  planId: r.planId,
  amount: toMoney(r.amount, r.currency),
  dispatched: r.dispatchedAt !== null,
  createdAt: r.createdAt,
});

const money = (amount: string, currency: string) => toMoney(toMinor(amount, currency), currency);

export function toUtilityCatalogue(c: { operators: readonly OperatorEntry[]; billers: readonly BillerEntry[] }): UtilityCatalogue {
  return {
    operators: c.operators.map((o) => ({
      code: o.code,
      name: o.name,
      country: o.country,
      minAmount: money(o.minAmount, o.currency),
      maxAmount: money(o.maxAmount, o.currency),
      plans: o.plans.map((p) => ({ id: p.id, name: p.name, price: money(p.price, o.currency), validityDays: p.validityDays })),
    })),
    billers: c.billers.map((b) => ({
      code: b.code,
      name: b.name,
      country: b.country,
      category: b.category,
      accountFormat: b.accountFormatHint,
      minAmount: money(b.minAmount, b.currency),
      maxAmount: money(b.maxAmount, b.currency),
    })),
    states: [...UTILITY_STATES],
  };
}

export const toBrand = (b: BrandEntry): GiftCardBrand => ({
  id: b.id,
  name: b.name,
  category: b.category,
  countries: b.countries.map((c) => ({ country: c.country, currency: c.currency, denominations: c.denominations.map((d) => money(d, c.currency).amount) })),
});

export const toGiftCardOrder = (o: GiftCardOrderRow): GiftCardOrder => ({
  id: o.id,
  userId: o.userId,
  brandId: o.brandId,
  country: o.country,
  denomination: toMoney(o.denomination, o.currency),
  quantity: o.quantity,
  recipientEmail: o.recipientEmail,
  fulfilment: o.fulfilment,
  createdAt: o.createdAt,
});

export const toDispute = (d: DisputeRow): Dispute => ({
  id: d.id,
  userId: d.userId,
  transactionId: d.transferId,
  amount: toMoney(d.amount, d.currency),
  reason: d.reason,
  description: d.description,
  status: d.status,
  resolutionNote: d.resolutionNote,
  reversalTransactionId: d.reversalTransferId,
  refundProposedBy: d.refundProposedBy,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

export const toRewardEvent = (e: RewardEventRow): RewardEvent => ({
  id: e.id,
  userId: e.userId,
  rule: e.rule,
  points: e.points.toString(),
  reference: e.reference,
  createdAt: e.createdAt,
});

export const toRewardRules = (r: RewardRulesView): RewardRules => ({
  pointsPerUnitSpent: r.pointsPerUnitSpent.toString(),
  referrerBonus: r.referrerBonus.toString(),
  referredBonus: r.referredBonus.toString(),
  pointsPerUnitRedeemed: r.pointsPerUnitRedeemed.toString(),
  minimumRedemption: r.minimumRedemption.toString(),
  pointValue: r.pointValue,
});
