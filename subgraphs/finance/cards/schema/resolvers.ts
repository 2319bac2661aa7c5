import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { unauthenticated } from '../../../../lib/errors';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { parseEvent } from '../../kernel/provider-http';
import type { CardHolder, IssuerEvent } from '../domain/cards';
import type { CardsServices } from '../services';
import { Card, CardAuthorisation, CardAuthorisationPage, CardIssuerEventOutcome, CardPage, RevealedCard } from './types';

function holderOf(ctx: SubgraphContext): CardHolder {
  const p = ctx.principal;
  if (p.kind !== 'node-user') throw unauthenticated();
  return { userId: p.userId, kycLevel: p.kycLevel };
}

const clamp = (n: number) => Math.min(Math.max(n, 1), 500);

/** Cards: part of the wallet (no toggle of their own); the gate refuses them in maintenance and read-only mode like every write. */
@Resolver()
export class CardsResolver {
  constructor(private readonly services: CardsServices) {}

  @Authorized('node-user')
  @Mutation(() => Card, { description: 'Issues a virtual card spending from the wallet in `currency` (POST /api/v1/cards/).' })
  issueCard(
    @Arg('currency') currency: string,
    @Arg('perAuthorisationLimit', () => String, { nullable: true }) perAuthorisationLimit: string | null,
    @Arg('dailyLimit', () => String, { nullable: true }) dailyLimit: string | null,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Card> {
    return this.services.cards.issue(holderOf(ctx), { currency, perAuthorisationLimit, dailyLimit }, idempotencyKey);
  }

  @Authorized('node-user')
  @Query(() => CardPage, { description: "The caller's cards, newest first." })
  cards(
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<CardPage> {
    return this.services.cards.list(holderOf(ctx), cursor, limit);
  }

  @Authorized('node-user')
  @Query(() => Card)
  card(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<Card> {
    return this.services.cards.get(holderOf(ctx), id);
  }

  @Authorized('node-user')
  @Mutation(() => RevealedCard, { description: 'The full card number, for its holder once the password (and 2FA code) is given again; each reveal is audited.' })
  revealCard(
    @Arg('id', () => ID) id: string,
    @Arg('password', { description: "The holder's password, checked again (throttled like sign-in)." }) password: string,
    @Arg('otp', () => String, { nullable: true, description: 'A current one-time code (or a recovery code) when the holder has 2FA.' }) otp: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<RevealedCard> {
    return this.services.cards.reveal(holderOf(ctx), id, { password, otp }, { requestId: ctx.requestId, clientAddress: ctx.clientAddress });
  }

  @Authorized('node-user')
  @Mutation(() => Card, { description: 'Freezes (true) or unfreezes (false) the card: a frozen card declines every authorisation.' })
  setCardFrozen(@Arg('id', () => ID) id: string, @Arg('frozen') frozen: boolean, @Ctx() ctx: SubgraphContext): Promise<Card> {
    return this.services.cards.setFrozen(holderOf(ctx), id, frozen);
  }

  @Authorized('node-user')
  @Mutation(() => Card, { description: 'Sets the spend limits (decimal strings in the card currency); null clears one, an omitted one stays.' })
  updateCardLimits(
    @Arg('id', () => ID) id: string,
    @Arg('perAuthorisationLimit', () => String, { nullable: true }) perAuthorisationLimit: string | null | undefined,
    @Arg('dailyLimit', () => String, { nullable: true }) dailyLimit: string | null | undefined,
    @Arg('clear', () => [String], { nullable: true, description: 'Limits to remove: perAuthorisationLimit, dailyLimit.' }) clear: string[] | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Card> {
    const value = (name: string, v: string | null | undefined) => (clear?.includes(name) ? null : (v ?? undefined));
    return this.services.cards.updateLimits(holderOf(ctx), id, {
      perAuthorisationLimit: value('perAuthorisationLimit', perAuthorisationLimit),
      dailyLimit: value('dailyLimit', dailyLimit),
    });
  }

  @Authorized('node-user')
  @Query(() => CardAuthorisationPage, { description: "A card's authorisations, newest first." })
  cardAuthorisations(
    @Arg('cardId', () => ID) cardId: string,
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<CardAuthorisationPage> {
    return this.services.cards.authorisations(holderOf(ctx), cardId, cursor, limit);
  }

  // no principal: the issuer proves itself by the event's HMAC signature
  @Mutation(() => CardIssuerEventOutcome, { description: "An issuer's signed webhook event (POST /api/v1/webhooks/cards/<provider>/)." })
  receiveCardIssuerEvent(
    @Arg('provider') provider: string,
    @Arg('signature', () => String, { nullable: true }) signature: string | null,
    @Arg('payload', { description: 'The event as JSON text.' }) payload: string,
  ): Promise<CardIssuerEventOutcome> {
    return this.services.cards.receiveEvent(provider, parseEvent<IssuerEvent>(payload), signature);
  }

  @Authorized('node-admin')
  @Query(() => [Card], { description: 'Cards, newest first, masked (admin console).' })
  adminCards(@Arg('first', () => Int, { defaultValue: 100 }) first: number): Promise<Card[]> {
    return this.services.cards.recentCards(clamp(first));
  }

  @Authorized('node-admin')
  @Query(() => [CardAuthorisation], { description: 'Card authorisations, newest first (admin console).' })
  adminCardAuthorisations(@Arg('first', () => Int, { defaultValue: 100 }) first: number): Promise<CardAuthorisation[]> {
    return this.services.cards.recentAuthorisations(clamp(first));
  }

}
