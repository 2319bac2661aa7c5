import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { GatewayContext } from '../../context';
import { measureOperation } from './measure';

/** `__type(name:)` selections per operation (an IDE looks up one type at a time). */
const MAX_TYPE_LOOKUPS = 10;

export interface QueryLimits {
  maxDepth: number;
  maxCost: number;
  maxRootFields: number;
}

/**
 * Rejects operations deeper, costlier or wider at the root than the limits (400,
 * QUERY_TOO_COMPLEX), measured with the variables they execute with (defaults included) and with
 * introspection counted (in depth, and once per operation). Registered before
 * useAuthentication: a rejected operation is never metered (Apollo Server starts the plugins'
 * didResolveOperation hooks in order, so the flag is set first).
 *
 * This measure stays, rather than GraphQL Armor's cost and depth rules, because it sizes lists by
 * their `first`/`limit` (from literals and variables) and counts introspection (Armor's depth rule
 * skips `__schema`); Armor bounds aliases and directives around it (use-document-limits).
 */
export function useQueryLimits(limits: QueryLimits): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          const m = measureOperation(schema, document, operation, request.variables ?? {});
          const reject = (message: string, limit: 'depth' | 'cost' | 'rootFields' | 'introspection') => {
            contextValue.rejected = true;
            throw new GraphQLError(message, {
              nodes: [operation],
              extensions: { code: 'QUERY_TOO_COMPLEX', limit, http: { status: 400, headers: new HeaderMap() } },
            });
          };
          if (m.rootFields > limits.maxRootFields)
            reject(`The operation selects ${m.rootFields} root fields; the limit is ${limits.maxRootFields}.`, 'rootFields');
          if (m.depth > limits.maxDepth) reject(`Query depth ${m.depth} exceeds the limit of ${limits.maxDepth}.`, 'depth');
          if (m.cost > limits.maxCost)
            reject(`Query cost ${m.cost} exceeds the limit of ${limits.maxCost}; ask for fewer items (first/limit) or fewer nested lists.`, 'cost');
          // the schema's description is the same every time: once per operation is all anyone needs
          const { schema: schemas, type: types } = m.introspectionSelections;
          if (schemas > 1 || types > MAX_TYPE_LOOKUPS) {
            reject(`Introspect at most once per operation: one __schema and ${MAX_TYPE_LOOKUPS} __type selections.`, 'introspection');
          }
        },
      };
    },
  };
}
