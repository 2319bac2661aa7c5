import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../lib/subgraph';
import type { CommerceServices } from '../services';
import { toDispute, toGiftCardOrder, toOrders, toProduct, toRewardEvent, toUtilityRequest } from './mappers';
import { actorOf } from './resolvers';
import { Dispute, DisputeMessage, GiftCardOrder, Product, ProductInput, Referral, RewardEvent, ShopOrder, UtilityRequest } from './types';

const ADMIN_LIST = 100;

/**
 * The admin console's side (superusers): products, orders and their moves, utility requests,
 * gift-card orders, disputes and their resolution, points and referrals. No module policy: an
 * administrator still sees and settles records while a module is switched off.
 */
@Resolver()
export class CommerceAdminResolver {
  constructor(private readonly services: CommerceServices) {}

  private async orderViews(orders: Awaited<ReturnType<CommerceServices['shop']['order']>>[]): Promise<ShopOrder[]> {
    const ids = orders.map((o) => o.id);
    const [items, history] = await Promise.all([this.services.shop.orderItems(ids), this.services.shop.orderHistory(ids)]);
    return toOrders(orders, items, history);
  }

  @Authorized('node-admin')
  @Query(() => [Product], { description: 'Every product, on sale or not (admin console).' })
  async adminShopProducts(): Promise<Product[]> {
    return (await this.services.shop.products({ activeOnly: false, limit: ADMIN_LIST })).results.map(toProduct);
  }

  @Authorized('node-admin')
  @Mutation(() => Product)
  async createShopProduct(@Arg('input', () => ProductInput) input: ProductInput, @Ctx() ctx: SubgraphContext): Promise<Product> {
    return toProduct(await this.services.shop.createProduct(input, actorOf(ctx)));
  }

  @Authorized('node-admin')
  @Mutation(() => Product)
  async updateShopProduct(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ProductInput) input: ProductInput,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Product> {
    return toProduct(await this.services.shop.updateProduct(id, input, actorOf(ctx)));
  }

  @Authorized('node-admin')
  @Mutation(() => Product, { description: 'Stores the image (PNG, JPEG or WebP, at most 2 MiB, base64) in the object store.' })
  async setShopProductImage(
    @Arg('id', () => ID) id: string,
    @Arg('contentType') contentType: string,
    @Arg('content') content: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Product> {
    return toProduct((await this.services.shop.setImage(id, contentType, content, actorOf(ctx)))!);
  }

  @Authorized('node-admin')
  @Query(() => [ShopOrder])
  async adminShopOrders(@Arg('status', () => String, { nullable: true }) status: string | null): Promise<ShopOrder[]> {
    return this.orderViews((await this.services.shop.orders({ status, limit: ADMIN_LIST })).results);
  }

  @Authorized('node-admin')
  @Mutation(() => ShopOrder, { description: 'paid → fulfilled.' })
  async fulfilShopOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<ShopOrder> {
    return (await this.orderViews([await this.services.shop.fulfil(id, actorOf(ctx))]))[0];
  }

  @Authorized('node-admin')
  @Mutation(() => ShopOrder, { description: 'pending | paid → cancelled; a paid order is refunded by a reversing transfer.' })
  async adminCancelShopOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<ShopOrder> {
    return (await this.orderViews([await this.services.shop.cancel(id, actorOf(ctx))]))[0];
  }

  @Authorized('node-admin')
  @Query(() => [UtilityRequest])
  async adminUtilityRequests(): Promise<UtilityRequest[]> {
    return (await this.services.utilities.requests({ limit: ADMIN_LIST })).results.map(toUtilityRequest);
  }

  @Authorized('node-admin')
  @Query(() => [GiftCardOrder])
  async adminGiftCardOrders(): Promise<GiftCardOrder[]> {
    return (await this.services.giftCards.orders({ limit: ADMIN_LIST })).results.map(toGiftCardOrder);
  }

  @Authorized('node-admin')
  @Query(() => [Dispute])
  async adminDisputes(@Arg('status', () => String, { nullable: true }) status: string | null): Promise<Dispute[]> {
    return (await this.services.disputes.disputes({ status, limit: ADMIN_LIST })).results.map(toDispute);
  }

  @Authorized('node-admin')
  @Query(() => Dispute)
  async adminDispute(@Arg('id', () => ID) id: string): Promise<Dispute> {
    return toDispute(await this.services.disputes.dispute(id));
  }

  @Authorized('node-admin')
  @Mutation(() => Dispute, { description: 'open → under_review.' })
  async reviewDispute(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<Dispute> {
    return toDispute(await this.services.disputes.review(id, actorOf(ctx)));
  }

  @Authorized('node-admin')
  @Mutation(() => Dispute, {
    description:
      "under_review → resolved in the user's favour: a reversing ledger transfer (once: 409 already_reversed). A superuser who is not a party (403 otherwise); a refund that needs the platform's dispute-loss account is proposed by the first superuser (the dispute stays under_review with refundProposedBy) and posted when a different one resolves it.",
  })
  async resolveDispute(@Arg('id', () => ID) id: string, @Arg('note') note: string, @Ctx() ctx: SubgraphContext): Promise<Dispute> {
    return toDispute(await this.services.disputes.resolve(id, actorOf(ctx), note));
  }

  @Authorized('node-admin')
  @Mutation(() => Dispute, { description: 'under_review → rejected: the transaction stands.' })
  async rejectDispute(@Arg('id', () => ID) id: string, @Arg('note') note: string, @Ctx() ctx: SubgraphContext): Promise<Dispute> {
    return toDispute(await this.services.disputes.reject(id, actorOf(ctx), note));
  }

  @Authorized('node-admin')
  @Mutation(() => DisputeMessage)
  async adminPostDisputeMessage(@Arg('id', () => ID) id: string, @Arg('body') body: string, @Ctx() ctx: SubgraphContext): Promise<DisputeMessage> {
    const m = await this.services.disputes.postMessage(id, actorOf(ctx), body);
    return { ...m, id: String(m.id) };
  }

  @Authorized('node-admin')
  @Query(() => [RewardEvent])
  async adminRewardEvents(): Promise<RewardEvent[]> {
    return (await this.services.rewards.events()).map(toRewardEvent);
  }

  @Authorized('node-admin')
  @Query(() => [Referral])
  adminReferrals(): Promise<Referral[]> {
    return this.services.rewards.referrals();
  }
}
