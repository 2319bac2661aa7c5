import { Arg, Authorized, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { unauthenticated } from '../../../../lib/errors';
import type { SubgraphContext } from '../../../../lib/subgraph';
import type { OperatorActor } from '../domain/operators';
import type { IdentityServices } from '../services';
import type { OperatorChangeRow } from '../store/operator-store';

/** The operator who acts: the admin console session the gateway verified. */
export function operatorOf(ctx: SubgraphContext): OperatorActor {
  const p = ctx.principal;
  if (p.kind !== 'node-admin') throw unauthenticated();
  return { userId: p.userId, username: p.username, role: p.role === 'support' ? 'support' : 'superuser' };
}

@ObjectType({ simpleResolvers: true, description: 'A two-person operator change: one superuser proposes, a different one approves (or rejects).' })
export class NodeOperatorChange {
  @Field(() => ID) id: string;
  @Field(() => ID) userId: string;
  @Field() username: string;
  @Field({ description: 'superuser, support, remove_role, freeze or reactivate.' }) change: string;
  @Field() reason: string;
  @Field({ description: 'pending, approved or rejected.' }) status: string;
  @Field() proposedByName: string;
  @Field() proposedAt: Date;
  @Field(() => String, { nullable: true }) decidedByName: string | null;
  @Field(() => Date, { nullable: true }) decidedAt: Date | null;
}

const toChange = (c: OperatorChangeRow): NodeOperatorChange => ({ ...c });

/** Creating, elevating, demoting, freezing or re-activating an operator: two people (identity/domain/operators.ts). */
@Resolver()
export class OperatorResolver {
  constructor(private readonly services: IdentityServices) {}

  @Authorized('node-admin')
  @Query(() => [NodeOperatorChange], { description: 'Operator changes, newest first (admin console); `status` filters (pending, approved, rejected).' })
  async nodeOperatorChanges(
    @Arg('first', () => Int, { defaultValue: 100 }) first: number,
    @Arg('status', () => String, { nullable: true }) status: string | null,
  ): Promise<NodeOperatorChange[]> {
    return (await this.services.operators.list(first, status)).map(toChange);
  }

  @Authorized('node-admin')
  @Mutation(() => NodeOperatorChange, {
    description:
      'Proposes an operator change of a user (by id or user name): superuser, support, remove_role, freeze or reactivate. Never of oneself (403); ' +
      '409 when it changes nothing or one is pending for the user. Audited.',
  })
  async proposeNodeOperatorChange(
    @Arg('user', () => ID) user: string,
    @Arg('change') change: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
  ): Promise<NodeOperatorChange> {
    return toChange(await this.services.operators.propose(operatorOf(ctx), user, change, reason ?? ''));
  }

  @Authorized('node-admin')
  @Mutation(() => NodeOperatorChange, {
    description: 'Approves a pending operator change: a superuser who neither proposed it nor is its subject (403 SAME_PERSON); it applies at once. Audited.',
  })
  async approveNodeOperatorChange(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<NodeOperatorChange> {
    return toChange(await this.services.operators.approve(operatorOf(ctx), id));
  }

  @Authorized('node-admin')
  @Mutation(() => NodeOperatorChange, { description: 'Rejects (or, by its proposer, withdraws) a pending operator change: nothing applies. Audited.' })
  async rejectNodeOperatorChange(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<NodeOperatorChange> {
    return toChange(await this.services.operators.reject(operatorOf(ctx), id));
  }
}
