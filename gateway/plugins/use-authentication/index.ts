import type { ApolloServerPlugin } from '@apollo/server';
import { randomUUID } from 'node:crypto';
import type { Quota } from '../../../lib/credentials';
import { isServerFault, rateLimitHeaders, type Authenticator } from '../../authentication';
import type { GatewayContext } from '../../context';

/**
 * Verifies the caller once per operation, before any subgraph is asked: the principal lands in the
 * context (and so reaches every subgraph), and a metered key's quota state goes out as X-RateLimit-*.
 * An answer that is the server's fault (5xx) gives its unit back before it goes out (its headers say so).
 * A 401 always carries a challenge (RFC 9110 §11.6.1): when a subgraph refused an anonymous caller,
 * the challenges of the credential kinds it could have presented.
 */
export function useAuthentication(authenticator: Authenticator): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      // what this operation's metering counted, and the ticket that gives it back once
      let metered: { quota: Quota; ticket: string } | undefined;
      return {
        async didResolveOperation({ contextValue, response }) {
          if (contextValue.preverified || contextValue.rejected) return;
          const { principal, quota } = await authenticator.authenticate(contextValue, { meter: true });
          contextValue.principal = principal;
          if (quota) {
            metered = { quota, ticket: randomUUID() };
            for (const [name, value] of rateLimitHeaders(quota)) response.http.headers.set(name, value);
          }
        },
        async willSendResponse({ response, contextValue }) {
          // an answer that is the server's fault (5xx: a subgraph failed, a model not ready) costs the caller nothing
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : response.body.initialResult.errors;
          if (metered && isServerFault(response.http.status, errors)) {
            const { quota, ticket } = metered;
            metered = undefined;
            const after = await authenticator.giveBack(contextValue, quota, ticket);
            for (const [name, value] of rateLimitHeaders(after)) response.http.headers.set(name, value);
          }
          if (response.http.status !== 401 || response.http.headers.has('www-authenticate')) return;
          const challenges = authenticator.challenges(contextValue);
          if (challenges.length) response.http.headers.set('www-authenticate', challenges.join(', '));
        },
      };
    },
  };
}
