import { Directive, Field, ID, ObjectType } from 'type-graphql';

/**
 * Identity's NodeUser as the other finance subgraphs refer to it: by id only (they store a user id);
 * the gateway asks identity for the rest (username, …) through its reference resolver, which answers
 * an administrator for anyone and a user for themselves only. Every `user` field of an admin-facing
 * type is this reference, so the console shows people by name, never by UUID.
 */
@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('NodeUser', { simpleResolvers: true })
export class NodeUserRef {
  @Field(() => ID) id: string;
}

export const userRef = (id: string): NodeUserRef => ({ id });
