import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { GatewayContext } from '../context';
import { measureOperation } from '../limits';

/**
 * Rejects operations deeper or costlier than the limits (400, QUERY_TOO_COMPLEX), measured with
 * their variables. Registered before useAuthentication: a rejected operation is never metered
 * (Apollo Server starts the plugins' didResolveOperation hooks in order, so the flag is set first).
 */
export function useQueryLimits(limits: { maxDepth: number; maxCost: number }): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          const { depth, cost } = measureOperation(schema, document, operation, request.variables ?? {});
          const reject = (message: string, limit: 'depth' | 'cost') => {
            contextValue.rejected = true;
            throw new GraphQLError(message, { nodes: [operation], extensions: { code: 'QUERY_TOO_COMPLEX', limit, http: { status: 400, headers: new HeaderMap() } } });
          };
          if (depth > limits.maxDepth) reject(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}.`, 'depth');
          if (cost > limits.maxCost) reject(`Query cost ${cost} exceeds the limit of ${limits.maxCost}; ask for fewer items (first/limit) or fewer nested lists.`, 'cost');
        },
      };
    },
  };
}
