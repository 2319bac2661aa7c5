import type { ApolloServerPlugin } from '@apollo/server';
import { rateLimitHeaders, type Authenticator } from '../../authentication';
import type { GatewayContext } from '../../context';

/**
 * Verifies the caller once per operation, before any subgraph is asked: the principal lands in the
 * context (and so reaches every subgraph), and a metered key's quota state goes out as X-RateLimit-*.
 * A 401 always carries a challenge (RFC 9110 §11.6.1): when a subgraph refused an anonymous caller,
 * the challenges of the credential kinds it could have presented.
 */
export function useAuthentication(authenticator: Authenticator): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, response }) {
          if (contextValue.preverified || contextValue.rejected) return;
          const { principal, quota } = await authenticator.authenticate(contextValue, { meter: true });
          contextValue.principal = principal;
          if (quota) for (const [name, value] of rateLimitHeaders(quota)) response.http.headers.set(name, value);
        },
        async willSendResponse({ response, contextValue }) {
          if (response.http.status !== 401 || response.http.headers.has('www-authenticate')) return;
          const challenges = authenticator.challenges(contextValue);
          if (challenges.length) response.http.headers.set('www-authenticate', challenges.join(', '));
        },
      };
    },
  };
}
