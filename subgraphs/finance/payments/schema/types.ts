import { Field, ID, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money';

@ObjectType({ simpleResolvers: true, description: 'A transfer between two users of the node (posted at once).' })
export class InternalTransfer {
  @Field(() => ID, { description: 'The ledger transfer id (its receipt: GET /api/v1/transactions/<id>/receipt/).' }) id: string;
  @Field() status: string;
  @Field(() => Money) amount: Money;
  @Field({ description: "The sender's user name." }) sender: string;
  @Field({ description: "The recipient's user name." }) recipient: string;
  @Field(() => String, { nullable: true }) note: string | null;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true, description: 'An FX quote: rate, fee and both amounts, fixed until it expires.' })
export class FxQuote {
  @Field(() => ID) id: string;
  @Field(() => Money, { description: 'Taken from the source account, fee included.' }) source: Money;
  @Field(() => Money, { description: 'Credited to the target account.' }) target: Money;
  @Field(() => Money, { description: 'In the source currency, included in source.' }) fee: Money;
  @Field({ description: 'Units of the target currency per unit of the source currency (decimal string).' }) rate: string;
  @Field() expiresAt: Date;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true, description: 'An executed FX quote.' })
export class FxConversion {
  @Field(() => ID, { description: 'The ledger transfer id of its source leg (its receipt).' }) id: string;
  @Field(() => ID) quoteId: string;
  @Field() status: string;
  @Field(() => Money) source: Money;
  @Field(() => Money) target: Money;
  @Field(() => Money) fee: Money;
  @Field() rate: string;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true, description: "An external party's event (webhook, callback), as received." })
export class ProviderEvent {
  @Field(() => ID) id: string;
  @Field() provider: string;
  @Field() eventId: string;
  @Field() type: string;
  @Field() status: string;
  @Field(() => String, { nullable: true }) error: string | null;
  @Field() receivedAt: Date;
  @Field(() => Date, { nullable: true }) processedAt: Date | null;
}

@ObjectType({ simpleResolvers: true, description: 'Who a transfer would go to, shown before the sender confirms: the handle and whether it is verified; nothing else.' })
export class TransferRecipient {
  @Field({ description: 'The user name the reference resolves to.' }) username: string;
  @Field({ description: 'Whether the recipient passed identity verification.' }) verified: boolean;
}
