import { Arg, Authorized, Ctx, Field, Float, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { unauthenticated } from '../../../../lib/errors';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { OUTCOME_LABEL } from '../vocabulary';
import type { PredictionServices } from '../services';
import type { FollowRow } from '../store/follow-store';

@ObjectType({ simpleResolvers: true })
export class FollowedTeam {
  @Field(() => Int) teamId: number;
  @Field() name: string;
}

@ObjectType({ simpleResolvers: true, description: "A notice due to a subscriber: a followed team's next prediction, published or about to kick off." })
export class FollowNotice {
  @Field() subscriber: string;
  @Field(() => Int) matchId: number;
  @Field({ description: 'published or reminder' }) kind: string;
  @Field() kickoff: Date;
  @Field() competition: string;
  @Field() homeTeamName: string;
  @Field() awayTeamName: string;
  @Field() outcomeLabel: string;
  @Field(() => Float) confidence: number;
  @Field(() => String, { nullable: true, description: "The subscriber's time zone, if set." }) timeZone: string | null;
}

@InputType()
export class FollowNoticeInput {
  @Field() subscriber: string;
  @Field(() => Int) matchId: number;
  @Field() kind: string;
}

const owner = (ctx: SubgraphContext) => {
  if (ctx.principal.kind !== 'api-key') throw unauthenticated();
  return ctx.principal.prefix;
};
const toTeams = (rows: FollowRow[]): FollowedTeam[] => rows.map((r) => ({ teamId: r.teamId, name: r.teamName }));

/**
 * Follows for the calling key's own subscribers (the bot's chats, `telegram:<chat id>`): another key
 * sees none of them. Never cached: each answer is the caller's.
 */
@Resolver()
export class FollowResolver {
  constructor(private readonly services: PredictionServices) {}

  @Authorized()
  @Mutation(() => [FollowedTeam], { description: 'Follows a team (named as a person types it); answers every team the subscriber follows.' })
  async followTeam(@Arg('subscriber') subscriber: string, @Arg('team') team: string, @Ctx() ctx: SubgraphContext): Promise<FollowedTeam[]> {
    return toTeams((await this.services.follows.follow(owner(ctx), subscriber, team)).follows);
  }

  @Authorized()
  @Mutation(() => [FollowedTeam], { description: 'Unfollows a team, or every team without one; answers the teams still followed.' })
  async unfollowTeam(
    @Arg('subscriber') subscriber: string,
    @Arg('team', () => String, { nullable: true }) team: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<FollowedTeam[]> {
    return toTeams((await this.services.follows.unfollow(owner(ctx), subscriber, team)).follows);
  }

  @Authorized()
  @Query(() => [FollowedTeam])
  async followedTeams(@Arg('subscriber') subscriber: string, @Ctx() ctx: SubgraphContext): Promise<FollowedTeam[]> {
    return toTeams(await this.services.follows.follows(owner(ctx), subscriber));
  }

  @Authorized()
  @Mutation(() => String, { description: 'Sets the time zone (IANA, e.g. Europe/Berlin) kick-off times are shown in; answers its canonical name.' })
  setSubscriberTimeZone(@Arg('subscriber') subscriber: string, @Arg('zone') zone: string, @Ctx() ctx: SubgraphContext): Promise<string> {
    return this.services.follows.setTimeZone(owner(ctx), subscriber, zone);
  }

  @Authorized()
  @Query(() => String, { nullable: true })
  subscriberTimeZone(@Arg('subscriber') subscriber: string, @Ctx() ctx: SubgraphContext): Promise<string | null> {
    return this.services.follows.timeZone(owner(ctx), subscriber);
  }

  @Authorized()
  @Query(() => [FollowNotice], { description: "Notices due to the caller's subscribers now: each followed team's next prediction, and a reminder before its kick-off." })
  async followNotices(
    @Arg('reminderMinutes', () => Int, { defaultValue: 60 }) reminderMinutes: number,
    @Arg('first', () => Int, { defaultValue: 100 }) first: number,
    @Ctx() ctx: SubgraphContext,
  ): Promise<FollowNotice[]> {
    return (await this.services.follows.due(owner(ctx), reminderMinutes, first)).map((n) => ({
      ...n,
      outcomeLabel: OUTCOME_LABEL[n.predictedOutcome as keyof typeof OUTCOME_LABEL],
    }));
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Notices delivered: never due again.' })
  async markFollowNoticesSent(@Arg('notices', () => [FollowNoticeInput]) notices: FollowNoticeInput[], @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await this.services.follows.markSent(owner(ctx), notices);
    return true;
  }
}
