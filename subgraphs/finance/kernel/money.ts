import { Directive, Field, ObjectType } from 'type-graphql';

/**
 * An amount of money as the finance node shows it: a decimal string and its currency (never a float).
 * One GraphQL type shared by every finance subgraph that shows an amount (`@shareable`): it lives in
 * the kernel, so no subgraph imports another's schema to show one.
 */
@Directive('@shareable')
@ObjectType({ simpleResolvers: true, description: 'An amount: a decimal string ("10.50") and an ISO currency code.' })
export class Money {
  @Field() amount: string;
  @Field() currency: string;
}
