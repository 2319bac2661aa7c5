import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money';

@ObjectType({ simpleResolvers: true, description: 'A virtual bank account held for a user at a rail: an IBAN (EUR, GBP) or a NUBAN (NGN).' })
export class VirtualAccount {
  @Field(() => ID) id: string;
  @Field() currency: string;
  @Field({ description: 'iban or nuban' }) rail: string;
  @Field({ description: 'The IBAN (electronic form) or the 10-digit NUBAN.' }) accountNumber: string;
  @Field({ description: 'Sort code (GBP), BIC (EUR), CBN bank code (NGN).' }) bankCode: string;
  @Field() bankName: string;
  @Field() holderName: string;
  @Field() createdAt: Date;
  @Field({ description: "Whether the rail is the node's sandbox: the account can receive a simulated incoming transfer." }) sandbox: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'A money movement through an external provider; its money is a ledger transfer (pending → posted | voided).' })
export class BankingMovement {
  @Field(() => ID) id: string;
  @Field({ description: 'inbound_credit, bank_transfer, mobile_money_deposit, mobile_money_withdrawal, ramp_on or ramp_off' }) kind: string;
  @Field({ description: 'pending, posted or voided' }) status: string;
  @Field(() => Money) amount: Money;
  @Field(() => Money, { nullable: true, description: 'A ramp: what the user receives in the other currency.' }) counterAmount: Money | null;
  @Field() provider: string;
  @Field(() => GraphQLJSONObject) counterparty: Record<string, unknown>;
  @Field(() => String, { nullable: true }) failureReason: string | null;
  @Field(() => ID) ledgerTransferId: string;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class BankingMovementPage {
  @Field(() => [BankingMovement]) results: BankingMovement[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true, description: "A provider's webhook as received (admin console)." })
export class BankingProviderEvent {
  @Field() provider: string;
  @Field() eventId: string;
  @Field() type: string;
  @Field(() => String, { nullable: true }) outcome: string | null;
  @Field() receivedAt: Date;
  @Field(() => Date, { nullable: true }) processedAt: Date | null;
}

@ObjectType({ simpleResolvers: true })
export class BankingWebhookReceipt {
  @Field() received: boolean;
  @Field({ description: 'processed, duplicate (the event id was seen before) or ignored (nothing of ours)' }) outcome: string;
}

@InputType()
export class BankTransferInput {
  @Field({ description: 'A decimal string, e.g. "2500.00"' }) amount: string;
  @Field() currency: string;
  @Field({ description: "The destination bank's CBN code (3 or 6 digits)" }) bankCode: string;
  @Field({ description: 'The 10-digit NUBAN' }) accountNumber: string;
  @Field(() => String, { nullable: true }) accountName?: string | null;
  @Field(() => String, { nullable: true }) narration?: string | null;
}

@InputType()
export class MobileMoneyInput {
  @Field() amount: string;
  @Field() currency: string;
  @Field({ description: 'The wallet\'s phone number in international form, e.g. "+233241234567"' }) phoneNumber: string;
}

@InputType()
export class RampInput {
  @Field({ description: 'on: fiat → crypto; off: crypto → fiat' }) direction: string;
  @Field({ description: 'EUR, GBP, USD or NGN' }) fiatCurrency: string;
  @Field({ description: 'BTC, ETH, USDC or USDT' }) asset: string;
  @Field({ description: 'A decimal string: in the fiat currency (on) or in the asset (off)' }) amount: string;
}
