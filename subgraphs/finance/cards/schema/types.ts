import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money';

@ObjectType({ simpleResolvers: true, description: 'A virtual card; its number shows only masked (the full number: revealCard, audited).' })
export class Card {
  @Field(() => ID) id: string;
  @Field() brand: string;
  @Field() last4: string;
  @Field({ description: '•••• •••• •••• 4242' }) maskedNumber: string;
  @Field(() => Int) expMonth: number;
  @Field(() => Int) expYear: number;
  @Field({ description: "The wallet currency the card spends from." }) currency: string;
  @Field({ description: 'active or frozen' }) status: string;
  @Field(() => Money, { nullable: true, description: 'Largest single authorisation; none: no limit.' }) perAuthorisationLimit: Money | null;
  @Field(() => Money, { nullable: true, description: 'Most authorised per UTC day (held and captured); none: no limit.' }) dailyLimit: Money | null;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class CardPage {
  @Field(() => [Card]) results: Card[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true, description: "A card's full number and security code, for its holder (each reveal is audited)." })
export class RevealedCard {
  @Field(() => ID) id: string;
  @Field() number: string;
  @Field({ description: "The card's security code (CVC/CVV), asked of the issuer at each reveal; the node never stores it." }) cvc: string;
  @Field(() => Int) expMonth: number;
  @Field(() => Int) expYear: number;
}

@ObjectType({ simpleResolvers: true, description: "An authorisation the issuer asked for: pending (held), captured (posted), released (voided) or declined." })
export class CardAuthorisation {
  @Field(() => ID) id: string;
  @Field(() => ID) cardId: string;
  @Field() providerAuthorisationId: string;
  @Field(() => Money) amount: Money;
  @Field() merchantName: string;
  @Field() merchantCategory: string;
  @Field() status: string;
  @Field(() => String, { nullable: true, description: "card_frozen, currency_mismatch, kyc_required, authorisation_limit, daily_limit, insufficient_funds, limit_exceeded: over the limits of the holder's KYC level" })
  declineReason: string | null;
  @Field(() => Money, { nullable: true }) capturedAmount: Money | null;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class CardAuthorisationPage {
  @Field(() => [CardAuthorisation]) results: CardAuthorisation[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true, description: "The node's answer to an issuer event: for a request, approved or declined with the reason." })
export class CardIssuerEventOutcome {
  @Field() approved: boolean;
  @Field(() => String, { nullable: true }) declineReason: string | null;
  @Field(() => CardAuthorisation) authorisation: CardAuthorisation;
}
