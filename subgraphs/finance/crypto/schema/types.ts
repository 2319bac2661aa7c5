import { Field, ID, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money';
import { NodeUserRef } from '../../kernel/user-ref';

@ObjectType({ simpleResolvers: true, description: "The user's deposit address for an asset." })
export class CryptoDepositAddress {
  @Field(() => ID) id: string;
  @Field() asset: string;
  @Field() network: string;
  @Field() address: string;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true, description: 'A deposit address with its owner (admin console).' })
export class AdminCryptoDepositAddress extends CryptoDepositAddress {
  @Field(() => ID) userId: string;
  @Field(() => NodeUserRef, { description: 'The user (their user name from identity)' }) user?: NodeUserRef;
}

@ObjectType({ simpleResolvers: true, description: 'A confirmed deposit, credited once to the wallet.' })
export class CryptoDeposit {
  @Field(() => ID) id: string;
  @Field() asset: string;
  @Field(() => Money) amount: Money;
  @Field() address: string;
  @Field() txHash: string;
  @Field({ description: 'confirmed or credited' }) status: string;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) creditedAt: Date | null;
}

@ObjectType({ simpleResolvers: true })
export class CryptoDepositPage {
  @Field(() => [CryptoDeposit]) results: CryptoDeposit[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A swap quote: sell fromAmount (the fee included), receive toAmount, until expiresAt.' })
export class CryptoQuote {
  @Field(() => ID) id: string;
  @Field(() => Money) fromAmount: Money;
  @Field(() => Money, { description: "The node's fee, in the asset sold." }) fee: Money;
  @Field(() => Money) toAmount: Money;
  @Field({ description: 'Units of the asset bought per unit sold (decimal string).' }) rate: string;
  @Field() expiresAt: Date;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true, description: 'An executed quote.' })
export class CryptoSwap {
  @Field(() => ID) id: string;
  @Field(() => ID) quoteId: string;
  @Field(() => Money) fromAmount: Money;
  @Field(() => Money) fee: Money;
  @Field(() => Money) toAmount: Money;
  @Field() rate: string;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class CryptoSwapPage {
  @Field(() => [CryptoSwap]) results: CryptoSwap[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}
