import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { unauthenticated } from '../../../../lib/errors';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { parseEvent } from '../../kernel/provider-http';
import { NodePolicy } from '../../kernel/gate';
import type { CryptoUser, ExchangeEvent } from '../domain/crypto';
import type { CryptoServices } from '../services';
import { AdminCryptoDepositAddress, CryptoDeposit, CryptoDepositAddress, CryptoDepositPage, CryptoQuote, CryptoSwap, CryptoSwapPage } from './types';
import { userReferenceResolver } from '../../kernel/user-ref';

function userOf(ctx: SubgraphContext): CryptoUser {
  const p = ctx.principal;
  if (p.kind !== 'node-user') throw unauthenticated();
  return { userId: p.userId, kycLevel: p.kycLevel };
}

const clamp = (n: number) => Math.min(Math.max(n, 1), 500);

/** Module `crypto`: every user field refused while its toggle is off. */
@Resolver()
export class CryptoResolver {
  constructor(private readonly services: CryptoServices) {}

  @Authorized('node-user')
  @NodePolicy({ module: 'crypto' })
  @Mutation(() => CryptoDepositAddress, { description: "The caller's deposit address for an asset (created on first request)." })
  createCryptoDepositAddress(@Arg('asset') asset: string, @Ctx() ctx: SubgraphContext): Promise<CryptoDepositAddress> {
    return this.services.crypto.depositAddress(userOf(ctx), asset);
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'crypto' })
  @Query(() => [CryptoDepositAddress])
  cryptoDepositAddresses(@Ctx() ctx: SubgraphContext): Promise<CryptoDepositAddress[]> {
    return this.services.crypto.addresses(userOf(ctx));
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'crypto' })
  @Query(() => CryptoDepositPage)
  cryptoDeposits(
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<CryptoDepositPage> {
    return this.services.crypto.deposits(userOf(ctx), cursor, limit);
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'crypto' })
  @Mutation(() => CryptoQuote, { description: 'A quote to swap fromAmount of fromAsset into toAsset (rate, fee, expiry).' })
  createCryptoQuote(
    @Arg('fromAsset') fromAsset: string,
    @Arg('toAsset') toAsset: string,
    @Arg('fromAmount') fromAmount: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<CryptoQuote> {
    return this.services.crypto.quote(userOf(ctx), { fromAsset, toAsset, fromAmount });
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'crypto' })
  @Mutation(() => CryptoSwap, { description: 'Executes a quote before it expires: one atomic multi-leg ledger transfer.' })
  swapCrypto(
    @Arg('quoteId', () => ID) quoteId: string,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<CryptoSwap> {
    return this.services.crypto.swap(userOf(ctx), quoteId, idempotencyKey);
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'crypto' })
  @Query(() => CryptoSwapPage)
  cryptoSwaps(
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<CryptoSwapPage> {
    return this.services.crypto.swaps(userOf(ctx), cursor, limit);
  }

  // no principal: the exchange proves itself by the event's HMAC signature; deposits are credited even with the module off (the money has arrived)
  @Mutation(() => CryptoDeposit, { description: "The exchange's signed webhook event (POST /api/v1/webhooks/crypto/<provider>/)." })
  receiveCryptoExchangeEvent(
    @Arg('provider') provider: string,
    @Arg('signature', () => String, { nullable: true }) signature: string | null,
    @Arg('payload', { description: 'The event as JSON text.' }) payload: string,
  ): Promise<CryptoDeposit> {
    return this.services.crypto.receiveEvent(provider, parseEvent<ExchangeEvent>(payload), signature);
  }

  @Authorized('node-admin')
  @Query(() => [AdminCryptoDepositAddress], { description: 'Deposit addresses, newest first (admin console).' })
  adminCryptoDepositAddresses(@Arg('first', () => Int, { defaultValue: 100 }) first: number): Promise<AdminCryptoDepositAddress[]> {
    return this.services.crypto.recentAddresses(clamp(first));
  }

  @Authorized('node-admin')
  @Query(() => [CryptoDeposit], { description: 'Deposits, newest first (admin console).' })
  adminCryptoDeposits(@Arg('first', () => Int, { defaultValue: 100 }) first: number): Promise<CryptoDeposit[]> {
    return this.services.crypto.recentDeposits(clamp(first));
  }

  @Authorized('node-admin')
  @Query(() => [CryptoSwap], { description: 'Swaps, newest first (admin console).' })
  adminCryptoSwaps(@Arg('first', () => Int, { defaultValue: 100 }) first: number): Promise<CryptoSwap[]> {
    return this.services.crypto.recentSwaps(clamp(first));
  }

}

/** The record's user, by reference (identity answers their user name). */
export const AdminCryptoDepositAddressUserResolver = userReferenceResolver(AdminCryptoDepositAddress);
