import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { unauthenticated } from '../../../../lib/errors';
import { toMoney } from '../../kernel/currencies';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { kycLevelReaches, kycRequiredError, NodePolicy, requiredKycLevel } from '../../kernel/gate';
import { NodeUserRef, userRef, userReferenceResolver } from '../../kernel/user-ref';
import { USER_ACTOR, type Actor } from '../domain/common';
import type { CommerceServices } from '../services';
import {
  toRewardRules,
  toBrand,
  toCart,
  toDispute,
  toGiftCardOrder,
  toHistory,
  toOrders,
  toProduct,
  toRewardEvent,
  toUtilityCatalogue,
  toUtilityRequest,
} from './mappers';
import {
  AttachmentInput,
  Cart,
  Dispute,
  DisputeAttachment,
  DisputeMessage,
  DisputePage,
  GiftCardBrand,
  GiftCardCountry,
  GiftCardOrder,
  GiftCardOrderPage,
  Product,
  ProductPage,
  Redemption,
  RewardsSummary,
  RewardEvent,
  ShopOrder,
  ShopOrderPage,
  StateChange,
  UtilityCatalogue,
  UtilityRequest,
  UtilityRequestPage,
} from './types';

/** The caller as a node user (every field here is a user's). */
export function nodeUser(ctx: SubgraphContext) {
  const p = ctx.principal;
  if (p.kind !== 'node-user') throw unauthenticated();
  return p;
}

/** The caller as the histories name it. */
export function actorOf(ctx: SubgraphContext): Actor {
  const p = ctx.principal;
  if (p.kind === 'node-user') return { role: 'user', userId: p.userId };
  if (p.kind === 'node-admin') return { role: 'admin', username: p.username, userId: p.userId, operatorRole: p.role };
  throw unauthenticated();
}

const SHOP = { module: 'shop' } as const;
const DISPUTES = { module: 'disputes' } as const;
const REWARDS = { module: 'rewards' } as const;

/**
 * The user's side of shop, utilities and gift cards (toggle "Shop and utilities"), disputes
 * (toggle "Dispute and support system") and rewards (toggle "Points and rewards"). Thin: the rules
 * live in domain/.
 */
@Resolver()
export class CommerceResolver {
  constructor(private readonly services: CommerceServices) {}

  /** Money-moving operations follow the KYC toggles (the user's level must reach the required one). */
  private async assertKyc(ctx: SubgraphContext): Promise<void> {
    const user = nodeUser(ctx);
    const required = requiredKycLevel(await this.services.gate.state());
    if (!kycLevelReaches(user.kycLevel, required)) throw kycRequiredError(required, user.kycLevel);
  }

  private async orderViews(orders: Awaited<ReturnType<CommerceServices['shop']['order']>>[]): Promise<ShopOrder[]> {
    const ids = orders.map((o) => o.id);
    const [items, history] = await Promise.all([this.services.shop.orderItems(ids), this.services.shop.orderHistory(ids)]);
    return toOrders(orders, items, history);
  }

  // ---- shop

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Query(() => ProductPage, { description: 'Products on sale, newest first; `search` matches name and description.' })
  async shopProducts(
    @Arg('search', () => String, { nullable: true }) search: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
  ): Promise<ProductPage> {
    const page = await this.services.shop.products({ activeOnly: true, search, limit, cursor });
    return { results: page.results.map(toProduct), nextCursor: page.nextCursor };
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Query(() => Product)
  async shopProduct(@Arg('id', () => ID) id: string): Promise<Product> {
    return toProduct(await this.services.shop.product(id, true));
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Query(() => Cart, { description: "The caller's cart (current prices; stock is not reserved)." })
  async shopCart(@Ctx() ctx: SubgraphContext): Promise<Cart> {
    return toCart(await this.services.shop.cart(nodeUser(ctx).userId));
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Mutation(() => Cart, { description: 'Adds a product (stock and price checked); the same product again adds to its line.' })
  async addShopCartItem(
    @Arg('productId', () => ID) productId: string,
    @Arg('quantity', () => Int) quantity: number,
    @Arg('expectedPrice', () => String, { nullable: true }) expectedPrice: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Cart> {
    return toCart(await this.services.shop.addToCart(nodeUser(ctx).userId, productId, quantity, expectedPrice));
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Mutation(() => Cart)
  async changeShopCartItem(@Arg('itemId', () => ID) itemId: string, @Arg('quantity', () => Int) quantity: number, @Ctx() ctx: SubgraphContext): Promise<Cart> {
    return toCart(await this.services.shop.changeCartItem(nodeUser(ctx).userId, itemId, quantity));
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Mutation(() => Cart)
  async removeShopCartItem(@Arg('itemId', () => ID) itemId: string, @Ctx() ctx: SubgraphContext): Promise<Cart> {
    return toCart(await this.services.shop.removeCartItem(nodeUser(ctx).userId, itemId));
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Mutation(() => ShopOrder, { description: 'Cart → a pending order with price snapshots; the cart is emptied. No wallet charge, no stock reservation.' })
  async shopCheckout(
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<ShopOrder> {
    const order = await this.services.shop.checkout(nodeUser(ctx).userId, idempotencyKey);
    return (await this.orderViews([order]))[0];
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Query(() => ShopOrderPage)
  async shopOrders(
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<ShopOrderPage> {
    const page = await this.services.shop.orders({ userId: nodeUser(ctx).userId, limit, cursor });
    return { results: await this.orderViews(page.results), nextCursor: page.nextCursor };
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Query(() => ShopOrder)
  async shopOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<ShopOrder> {
    return (await this.orderViews([await this.services.shop.order(id, nodeUser(ctx).userId)]))[0];
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Mutation(() => ShopOrder, { description: 'pending → paid: the wallet pays the order total (a ledger transfer); stock is taken now.' })
  async payShopOrder(
    @Arg('orderId', () => ID) orderId: string,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<ShopOrder> {
    await this.assertKyc(ctx);
    return (await this.orderViews([await this.services.shop.pay(nodeUser(ctx), orderId, idempotencyKey)]))[0];
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Mutation(() => ShopOrder, { description: 'pending → cancelled (a paid order is cancelled, and refunded, by an administrator).' })
  async cancelShopOrder(@Arg('orderId', () => ID) orderId: string, @Ctx() ctx: SubgraphContext): Promise<ShopOrder> {
    return (await this.orderViews([await this.services.shop.cancel(orderId, actorOf(ctx))]))[0];
  }

  // ---- utilities

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Query(() => UtilityCatalogue, { description: 'Operators with their data plans, billers with their account formats, and the request states.' })
  utilityCatalogue(): UtilityCatalogue {
    return toUtilityCatalogue(this.services.utilities.catalogue());
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Query(() => UtilityRequestPage)
  async utilityRequests(
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<UtilityRequestPage> {
    const page = await this.services.utilities.requests({ userId: nodeUser(ctx).userId, limit, cursor });
    return { results: page.results.map(toUtilityRequest), nextCursor: page.nextCursor };
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Mutation(() => UtilityRequest, { description: 'Validated and stored pending_integration: nothing is dispatched, the wallet is not debited.' })
  async requestAirtime(
    @Arg('operator') operator: string,
    @Arg('phoneNumber') phoneNumber: string,
    @Arg('amount') amount: string,
    @Arg('currency') currency: string,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<UtilityRequest> {
    return toUtilityRequest(await this.services.utilities.airtime(nodeUser(ctx).userId, { operator, phoneNumber, amount, currency }, idempotencyKey));
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Mutation(() => UtilityRequest, { description: 'Validated and stored pending_integration: nothing is dispatched, the wallet is not debited.' })
  async requestDataBundle(
    @Arg('operator') operator: string,
    @Arg('phoneNumber') phoneNumber: string,
    @Arg('planId') planId: string,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<UtilityRequest> {
    return toUtilityRequest(await this.services.utilities.data(nodeUser(ctx).userId, { operator, phoneNumber, planId }, idempotencyKey));
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Mutation(() => UtilityRequest, { description: 'Validated and stored pending_integration: nothing is dispatched, the wallet is not debited.' })
  async requestBillPayment(
    @Arg('biller') biller: string,
    @Arg('accountNumber') accountNumber: string,
    @Arg('amount') amount: string,
    @Arg('currency') currency: string,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<UtilityRequest> {
    return toUtilityRequest(await this.services.utilities.bill(nodeUser(ctx).userId, { biller, accountNumber, amount, currency }, idempotencyKey));
  }

  // ---- gift cards

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Query(() => [GiftCardBrand], { description: 'Brands; filters: search (name), country, category, currency.' })
  giftCardBrands(
    @Arg('search', () => String, { nullable: true }) search: string | null,
    @Arg('country', () => String, { nullable: true }) country: string | null,
    @Arg('category', () => String, { nullable: true }) category: string | null,
    @Arg('currency', () => String, { nullable: true }) currency: string | null,
  ): GiftCardBrand[] {
    return this.services.giftCards.brands({ search, country, category, currency }).map(toBrand);
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Query(() => [GiftCardCountry])
  giftCardCountries(): GiftCardCountry[] {
    return this.services.giftCards.countries();
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Query(() => GiftCardOrderPage)
  async giftCardOrders(
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<GiftCardOrderPage> {
    const page = await this.services.giftCards.orders({ userId: nodeUser(ctx).userId, limit, cursor });
    return { results: page.results.map(toGiftCardOrder), nextCursor: page.nextCursor };
  }

  @Authorized('node-user')
  @NodePolicy(SHOP)
  @Mutation(() => GiftCardOrder, { description: 'Validated and recorded with fulfilment pending: no code is issued, nothing is charged.' })
  async orderGiftCard(
    @Arg('brandId') brandId: string,
    @Arg('country') country: string,
    @Arg('denomination') denomination: string,
    @Arg('quantity', () => Int, { nullable: true }) quantity: number | null,
    @Arg('recipientEmail', () => String, { nullable: true }) recipientEmail: string | null,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<GiftCardOrder> {
    return toGiftCardOrder(
      await this.services.giftCards.order(nodeUser(ctx).userId, { brandId, country, denomination, quantity, recipientEmail }, idempotencyKey),
    );
  }

  // ---- disputes

  @Authorized('node-user')
  @NodePolicy(DISPUTES)
  @Query(() => DisputePage)
  async disputes(
    @Arg('status', () => String, { nullable: true }) status: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<DisputePage> {
    const page = await this.services.disputes.disputes({ userId: nodeUser(ctx).userId, status, limit, cursor });
    return { results: page.results.map(toDispute), nextCursor: page.nextCursor };
  }

  @Authorized('node-user')
  @NodePolicy(DISPUTES)
  @Query(() => Dispute)
  async dispute(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<Dispute> {
    return toDispute(await this.services.disputes.dispute(id, nodeUser(ctx).userId));
  }

  @Authorized('node-user')
  @NodePolicy(DISPUTES)
  @Mutation(() => Dispute, { description: 'A dispute on one of the caller\'s transactions (money out of their wallet), with evidence files.' })
  async openDispute(
    @Arg('transactionId', () => ID) transactionId: string,
    @Arg('reason') reason: string,
    @Arg('description') description: string,
    @Arg('attachments', () => [AttachmentInput], { nullable: true }) attachments: AttachmentInput[] | null,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Dispute> {
    return toDispute(await this.services.disputes.open(nodeUser(ctx).userId, { transactionId, reason, description, attachments }, idempotencyKey));
  }

  @Authorized('node-user')
  @NodePolicy(DISPUTES)
  @Mutation(() => Dispute, { description: 'open → cancelled by the user who raised it.' })
  async cancelDispute(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<Dispute> {
    return toDispute(await this.services.disputes.cancel(nodeUser(ctx).userId, id));
  }

  @Authorized('node-user')
  @NodePolicy(DISPUTES)
  @Mutation(() => DisputeMessage)
  async postDisputeMessage(@Arg('id', () => ID) id: string, @Arg('body') body: string, @Ctx() ctx: SubgraphContext): Promise<DisputeMessage> {
    const m = await this.services.disputes.postMessage(id, actorOf(ctx), body);
    return { ...m, id: String(m.id) };
  }

  // ---- rewards

  @Authorized('node-user')
  @NodePolicy(REWARDS)
  @Query(() => RewardsSummary, { description: 'Points balance, referral code, the earning rules and the latest movements.' })
  async rewardsSummary(@Ctx() ctx: SubgraphContext): Promise<RewardsSummary> {
    const userId = nodeUser(ctx).userId;
    const [points, referralCode, referral, history] = await Promise.all([
      this.services.rewards.balance(userId),
      this.services.rewards.referralCode(userId),
      this.services.store.referralOf(userId),
      this.services.rewards.history(userId),
    ]);
    return {
      points: points.toString(),
      referralCode,
      referredBy: referral?.referrerUserId ?? null,
      referralRewarded: Boolean(referral?.rewardedAt),
      rules: toRewardRules(this.services.rewards.rules()),
      history: history.map(toRewardEvent),
    };
  }

  @Authorized('node-user')
  @NodePolicy(REWARDS)
  @Mutation(() => RewardsSummary, { description: "Names the referrer by their code: once, before the caller's first qualifying transaction." })
  async claimReferral(@Arg('code') code: string, @Ctx() ctx: SubgraphContext): Promise<RewardsSummary> {
    await this.services.rewards.claimReferral(nodeUser(ctx).userId, code);
    return this.rewardsSummary(ctx);
  }

  @Authorized('node-user')
  @NodePolicy(REWARDS)
  @Mutation(() => Redemption, { description: 'Points → wallet credit (a ledger transfer from the rewards account).' })
  async redeemRewardPoints(
    @Arg('points', () => Int) points: number,
    @Arg('currency') currency: string,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Redemption> {
    await this.assertKyc(ctx);
    const r = await this.services.rewards.redeem(nodeUser(ctx).userId, points, currency, idempotencyKey);
    return { points: r.points.toString(), credited: toMoney(r.credited, r.currency) };
  }
}

/** A dispute's evidence, thread and history, read when asked for. */
@Resolver(() => Dispute)
export class DisputeFieldsResolver {
  constructor(private readonly services: CommerceServices) {}

  @FieldResolver(() => [DisputeAttachment])
  async attachments(@Root() d: Dispute): Promise<DisputeAttachment[]> {
    return (await this.services.disputes.attachments(d.id)).map((a) => ({ id: a.id, filename: a.filename, contentType: a.contentType, size: a.size }));
  }

  @FieldResolver(() => [DisputeMessage])
  async messages(@Root() d: Dispute): Promise<DisputeMessage[]> {
    return (await this.services.disputes.messages(d.id)).map((m) => ({ ...m, id: String(m.id) }));
  }

  @FieldResolver(() => [StateChange])
  async history(@Root() d: Dispute): Promise<StateChange[]> {
    return (await this.services.disputes.history(d.id)).map(toHistory);
  }
}

/** Who made a state change, when a user did: by reference, so the console shows their user name, not `user:<id>`. */
@Resolver(() => StateChange)
class StateChangeActorResolver {
  @FieldResolver(() => NodeUserRef, { nullable: true })
  actorUser(@Root() change: StateChange): NodeUserRef | null {
    return change.actor.startsWith(USER_ACTOR) ? userRef(change.actor.slice(USER_ACTOR.length)) : null;
  }
}

/** Each commerce record's user, by reference (identity answers their user name). */
export const CommerceUserResolvers = [
  StateChangeActorResolver,
  userReferenceResolver(Dispute),
  userReferenceResolver(ShopOrder),
  userReferenceResolver(UtilityRequest),
  userReferenceResolver(GiftCardOrder),
  userReferenceResolver(RewardEvent),
] as const;
