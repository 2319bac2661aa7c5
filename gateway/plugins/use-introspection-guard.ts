import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { GraphQLError, Kind, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { isAdmin } from '../../lib/principal';
import type { GatewayContext } from '../context';

function selectsIntrospection(selectionSet: SelectionSetNode, fragments: Map<string, SelectionSetNode>, seen = new Set<string>()): boolean {
  for (const sel of selectionSet.selections) {
    if (sel.kind === Kind.FIELD && (sel.name.value === '__schema' || sel.name.value === '__type')) return true;
    if (sel.kind === Kind.INLINE_FRAGMENT && selectsIntrospection(sel.selectionSet, fragments, seen)) return true;
    if (sel.kind === Kind.FRAGMENT_SPREAD && !seen.has(sel.name.value)) {
      seen.add(sel.name.value);
      const frag = fragments.get(sel.name.value);
      if (frag && selectsIntrospection(frag, fragments, seen)) return true;
    }
  }
  return false;
}

/** Schema introspection is for administrator keys (and anyone in development mode). */
export function useIntrospectionGuard(opts: { openToAll: boolean }): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      if (opts.openToAll) return;
      return {
        async responseForOperation({ operation, document, contextValue }) {
          if (isAdmin(contextValue.principal)) return null;
          const fragments = new Map<string, SelectionSetNode>();
          for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def.selectionSet);
          if (!selectsIntrospection((operation as OperationDefinitionNode).selectionSet, fragments)) return null;
          const error = new GraphQLError('Introspection is restricted to administrator keys.', { extensions: { code: 'FORBIDDEN' } });
          return { http: { status: 403, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { errors: [error.toJSON()] } } };
        },
      };
    },
  };
}
