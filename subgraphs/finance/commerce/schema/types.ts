import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { NodeUserRef } from '../../kernel/user-ref';
import { Money } from '../../kernel/money';


/** GraphQL types of the commerce subgraph (money: Money, decimal string + currency). */

@ObjectType({ simpleResolvers: true })
export class StateChange {
  @Field(() => String, { nullable: true }) fromStatus: string | null;
  @Field() toStatus: string;
  @Field({ description: 'user:<id> or admin:<username>' }) actor: string;
  @Field(() => NodeUserRef, { nullable: true, description: 'The user who made the change when a user did (their user name from identity); null for an operator' })
  actorUser?: NodeUserRef | null;
  @Field(() => String, { nullable: true }) note: string | null;
  @Field() at: Date;
}

@ObjectType({ simpleResolvers: true })
export class Product {
  @Field(() => ID) id: string;
  @Field() name: string;
  @Field() description: string;
  @Field(() => Money) price: Money;
  @Field(() => Int) stock: number;
  @Field() active: boolean;
  @Field(() => String, { nullable: true, description: 'The image in the object store: its content type (null: no image).' })
  imageContentType: string | null;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class ProductPage {
  @Field(() => [Product]) results: Product[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true })
export class CartItem {
  @Field(() => ID) id: string;
  @Field(() => ID) productId: string;
  @Field() name: string;
  @Field(() => Money, { description: "The product's current price" }) unitPrice: Money;
  @Field(() => Int) quantity: number;
  @Field(() => Money) lineTotal: Money;
  @Field(() => Int, { description: 'In stock now (not reserved)' }) stock: number;
}

@ObjectType({ simpleResolvers: true })
export class Cart {
  @Field(() => [CartItem]) items: CartItem[];
  @Field(() => Money, { nullable: true, description: 'null for an empty cart' }) total: Money | null;
}

@ObjectType({ simpleResolvers: true })
export class OrderItem {
  @Field(() => ID) productId: string;
  @Field() name: string;
  @Field(() => Money, { description: 'The price at checkout (snapshot)' }) unitPrice: Money;
  @Field(() => Int) quantity: number;
}

@ObjectType({ simpleResolvers: true })
export class ShopOrder {
  @Field(() => ID) id: string;
  @Field(() => ID) userId: string;
  @Field(() => NodeUserRef, { description: 'The user (their user name from identity)' }) user?: NodeUserRef;
  @Field({ description: 'pending, paid, fulfilled, cancelled or refunded (its payment refunded by a dispute: never fulfilled)' }) status: string;
  @Field(() => Money) total: Money;
  @Field(() => [OrderItem]) items: OrderItem[];
  @Field(() => [StateChange]) history: StateChange[];
  @Field(() => ID, { nullable: true }) paymentTransactionId: string | null;
  @Field(() => ID, { nullable: true }) refundTransactionId: string | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class ShopOrderPage {
  @Field(() => [ShopOrder]) results: ShopOrder[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true })
export class DataPlan {
  @Field() id: string;
  @Field() name: string;
  @Field(() => Money) price: Money;
  @Field(() => Int) validityDays: number;
}

@ObjectType({ simpleResolvers: true })
export class Operator {
  @Field() code: string;
  @Field() name: string;
  @Field() country: string;
  @Field(() => Money) minAmount: Money;
  @Field(() => Money) maxAmount: Money;
  @Field(() => [DataPlan]) plans: DataPlan[];
}

@ObjectType({ simpleResolvers: true })
export class Biller {
  @Field() code: string;
  @Field() name: string;
  @Field() country: string;
  @Field() category: string;
  @Field() accountFormat: string;
  @Field(() => Money) minAmount: Money;
  @Field(() => Money) maxAmount: Money;
}

@ObjectType({ simpleResolvers: true })
export class UtilityCatalogue {
  @Field(() => [Operator]) operators: Operator[];
  @Field(() => [Biller]) billers: Biller[];
  @Field(() => [String], { description: 'Every state a request can take; today each stays pending_integration' }) states: string[];
}

@ObjectType({ simpleResolvers: true })
export class UtilityRequest {
  @Field(() => ID) id: string;
  @Field(() => ID) userId: string;
  @Field(() => NodeUserRef, { description: 'The user (their user name from identity)' }) user?: NodeUserRef;
  @Field({ description: 'airtime, data or bill' }) kind: string;
  @Field({ description: 'pending_integration (nothing dispatched), pending, successful, failed or reversed' }) status: string;
  @Field({ description: 'The operator or biller code' }) provider: string;
  @Field() country: string;
  @Field(() => String, { nullable: true }) phoneNumber: string | null;
  @Field(() => String, { nullable: true }) accountNumber: string | null;
  @Field(() => String, { nullable: true }) planId: string | null;
  @Field(() => Money) amount: Money;
  @Field({ description: 'false: nothing was sent to a provider' }) dispatched: boolean;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class UtilityRequestPage {
  @Field(() => [UtilityRequest]) results: UtilityRequest[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true })
export class GiftCardOffer {
  @Field() country: string;
  @Field() currency: string;
  @Field(() => [String], { description: 'Decimal strings in the offer\'s currency' }) denominations: string[];
}

@ObjectType({ simpleResolvers: true })
export class GiftCardBrand {
  @Field() id: string;
  @Field() name: string;
  @Field() category: string;
  @Field(() => [GiftCardOffer]) countries: GiftCardOffer[];
}

@ObjectType({ simpleResolvers: true })
export class GiftCardCountry {
  @Field() country: string;
  @Field(() => [String]) currencies: string[];
}

@ObjectType({ simpleResolvers: true })
export class GiftCardOrder {
  @Field(() => ID) id: string;
  @Field(() => ID) userId: string;
  @Field(() => NodeUserRef, { description: 'The user (their user name from identity)' }) user?: NodeUserRef;
  @Field() brandId: string;
  @Field() country: string;
  @Field(() => Money) denomination: Money;
  @Field(() => Int) quantity: number;
  @Field(() => String, { nullable: true }) recipientEmail: string | null;
  @Field({ description: 'pending until a provider is wired: no code is issued' }) fulfilment: string;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class GiftCardOrderPage {
  @Field(() => [GiftCardOrder]) results: GiftCardOrder[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true })
export class DisputeAttachment {
  @Field(() => ID) id: string;
  @Field() filename: string;
  @Field() contentType: string;
  @Field(() => Int) size: number;
}

@ObjectType({ simpleResolvers: true })
export class DisputeMessage {
  @Field(() => ID) id: string;
  @Field({ description: 'user or admin' }) authorRole: string;
  @Field() author: string;
  @Field() body: string;
  @Field() createdAt: Date;
}

@ObjectType()
export class Dispute {
  @Field(() => ID) id: string;
  @Field(() => ID) userId: string;
  @Field(() => NodeUserRef, { description: 'Who opened it (their user name from identity)' }) user?: NodeUserRef;
  @Field(() => ID, { description: 'The disputed ledger transaction' }) transactionId: string;
  @Field(() => Money) amount: Money;
  @Field() reason: string;
  @Field() description: string;
  @Field({ description: 'open, under_review, resolved, rejected or cancelled' }) status: string;
  @Field(() => String, { nullable: true }) resolutionNote: string | null;
  @Field(() => ID, { nullable: true, description: 'The reversing transaction (resolved in the user\'s favour)' }) reversalTransactionId: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The operator who proposed a refund from the platform's dispute-loss account: a second operator resolving the dispute approves it",
  })
  refundProposedBy: string | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class DisputePage {
  @Field(() => [Dispute]) results: Dispute[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@InputType()
export class AttachmentInput {
  @Field() filename: string;
  @Field({ description: 'image/png, image/jpeg or application/pdf' }) contentType: string;
  @Field({ description: 'The bytes, base64 (at most 5 MiB)' }) content: string;
}

@InputType()
export class ProductInput {
  @Field() name: string;
  @Field({ nullable: true }) description?: string;
  @Field({ description: 'Decimal string' }) price: string;
  @Field() currency: string;
  @Field(() => Int) stock: number;
  @Field({ nullable: true }) active?: boolean;
}

@ObjectType({ simpleResolvers: true })
export class RewardEvent {
  @Field(() => ID) id: string;
  @Field(() => ID) userId: string;
  @Field(() => NodeUserRef, { description: 'The user (their user name from identity)' }) user?: NodeUserRef;
  @Field({ description: 'purchase, referral_referrer, referral_referred or redemption' }) rule: string;
  @Field({ description: 'Points (a whole number; negative for a redemption)' }) points: string;
  @Field() reference: string;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class RewardRules {
  @Field() pointsPerUnitSpent: string;
  @Field() referrerBonus: string;
  @Field() referredBonus: string;
  @Field() pointsPerUnitRedeemed: string;
  @Field() minimumRedemption: string;
  @Field(() => Money, { description: "What one point is worth, in the node's reference currency (redemptions into another currency convert at the node's rate)" })
  pointValue: Money;
}

@ObjectType({ simpleResolvers: true })
export class RewardsSummary {
  @Field({ description: 'The points balance: below zero while points of a refunded purchase are owed (nothing can be redeemed then)' }) points: string;
  @Field() referralCode: string;
  @Field(() => ID, { nullable: true }) referredBy: string | null;
  @Field() referralRewarded: boolean;
  @Field(() => RewardRules) rules: RewardRules;
  @Field(() => [RewardEvent]) history: RewardEvent[];
}

@ObjectType({ simpleResolvers: true })
export class Redemption {
  @Field() points: string;
  @Field(() => Money) credited: Money;
}

@ObjectType({ simpleResolvers: true })
export class Referral {
  @Field(() => ID) referredUserId: string;
  @Field(() => ID) referrerUserId: string;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) rewardedAt: Date | null;
}
