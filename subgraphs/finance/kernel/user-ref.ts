import { Directive, Field, FieldResolver, ID, ObjectType, Resolver, Root, type ClassType } from 'type-graphql';

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

/**
 * The resolver of `user` on a type that stores `userId` (declare `@Field(() => NodeUserRef) user?`
 * on the type, and register the class this returns with the subgraph's resolvers, once).
 */
export function userReferenceResolver<T extends { userId: string }>(type: ClassType<T>) {
  @Resolver(() => type)
  class UserReferenceResolver {
    @FieldResolver(() => NodeUserRef)
    user(@Root() row: T): NodeUserRef {
      return userRef(row.userId);
    }
  }
  Object.defineProperty(UserReferenceResolver, 'name', { value: `${type.name}UserResolver` });
  return UserReferenceResolver;
}
