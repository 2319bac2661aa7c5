import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { GraphQLError, NoSchemaIntrospectionCustomRule, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { isAdmin, type Principal } from '../../../lib/principal';
import type { GatewayContext } from '../../context';

/** graphql-js's suggestions ("Did you mean "createApiKey"?") name fields, arguments, enum values and types. */
const SUGGESTION = / ?Did you mean [^?]*\?/;
const SUGGESTIONS = new RegExp(SUGGESTION.source, 'g');

export interface IntrospectionGuardOptions {
  /** Development mode: the schema is open to everyone. */
  openToAll: boolean;
  /**
   * Who is calling, without metering, for an operation that failed before authentication (a
   * validation error): an administrator still sees the suggestions.
   */
  identify?: (ctx: GatewayContext) => Promise<Principal>;
}

/**
 * The schema is for administrators (and anyone in development mode):
 * - introspection (`__schema`, `__type`), after authentication: graphql-js's own
 *   NoSchemaIntrospectionCustomRule finds it, fragments included. `__typename` stays open.
 * - the suggestions in error messages ("Did you mean …?"), from validation, variable coercion or a
 *   subgraph, are taken out of the answer to anyone else.
 */
/**
 * Whether a document introspects the schema. Apollo Server hands every request of the same document
 * the same parsed DocumentNode (its document store), so each document is checked once.
 */
const introspecting = new WeakMap<DocumentNode, boolean>();
function introspects(schema: GraphQLSchema, document: DocumentNode): boolean {
  let found = introspecting.get(document);
  if (found === undefined) introspecting.set(document, (found = validate(schema, document, [NoSchemaIntrospectionCustomRule]).length > 0));
  return found;
}

export function useIntrospectionGuard(opts: IntrospectionGuardOptions): ApolloServerPlugin<GatewayContext> {
  const administrator = async (ctx: GatewayContext): Promise<boolean> => {
    if (isAdmin(ctx.principal)) return true;
    if (ctx.preverified || !opts.identify) return false;
    try {
      return isAdmin(await opts.identify(ctx));
    } catch {
      return false;
    }
  };
  return {
    async requestDidStart() {
      if (opts.openToAll) return;
      return {
        async responseForOperation({ schema, document, contextValue }) {
          if (isAdmin(contextValue.principal) || !introspects(schema, document)) return null;
          const error = new GraphQLError('Introspection is restricted to administrator keys.', { extensions: { code: 'FORBIDDEN' } });
          return { http: { status: 403, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { errors: [error.toJSON()] } } };
        },
        async willSendResponse({ response, contextValue }) {
          const result = response.body.kind === 'single' ? response.body.singleResult : response.body.initialResult;
          const errors = result.errors;
          if (!errors?.some((e) => SUGGESTION.test(e.message))) return;
          if (await administrator(contextValue)) return;
          result.errors = errors.map((e) => (SUGGESTION.test(e.message) ? { ...e, message: e.message.replace(SUGGESTIONS, '') } : e));
        },
      };
    },
  };
}
