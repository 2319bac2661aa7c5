import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { UNAVAILABLE_RETRY_AFTER_SECONDS, retryAfterOf } from '../../../lib/errors';
import { asServiceUnavailable } from '../../../lib/faults';
import type { GatewayContext } from '../../context';

const CODE = 'SERVICE_UNAVAILABLE';

/**
 * An operation that failed because a dependency is unreachable (the database, a subgraph) answers
 * 503 SERVICE_UNAVAILABLE with Retry-After, never 500 with the fault's message: the subgraphs turn
 * their database's outages into that code (lib/faults.ts), and what reaches the gateway unmapped (a
 * remote subgraph refusing connections) is mapped here.
 *
 * didEncounterErrors is the one hook that sees the errors before Apollo Server formats them and
 * reads their `extensions.http`; the errors are replaced in that same list.
 */
export function useServiceUnavailable(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors }) {
          const list = errors as GraphQLError[];
          list.forEach((error, i) => {
            const mapped = asServiceUnavailable(error);
            if (mapped.extensions?.code === CODE) list[i] = withRetryAfter(mapped);
          });
        },
      };
    },
  };
}

/** The error with its status (503) and a Retry-After header in `extensions.http`, which Apollo Server applies. */
function withRetryAfter(error: GraphQLError): GraphQLError {
  const http = error.extensions.http as { status?: number; headers?: Map<string, string> } | undefined;
  if (http?.headers?.has('retry-after')) return error;
  const seconds = retryAfterOf(error.extensions) ?? UNAVAILABLE_RETRY_AFTER_SECONDS;
  const headers = new HeaderMap([...(http?.headers ?? []), ['retry-after', String(seconds)]]);
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, http: { status: 503, headers } },
  });
}
