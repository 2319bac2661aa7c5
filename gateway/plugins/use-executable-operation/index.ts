import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, valueFromASTUntyped, type OperationDefinitionNode } from 'graphql';
import type { GatewayContext } from '../../context';

/**
 * The variables an operation executes with: those the client sent, and for each variable it left
 * out that declares a default, the default (as the client would have written it in JSON).
 */
export function withDefaults(operation: OperationDefinitionNode, variables: Record<string, unknown> = {}): Record<string, unknown> {
  let completed: Record<string, unknown> | undefined;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (definition.defaultValue === undefined || Object.prototype.hasOwnProperty.call(variables, name)) continue;
    completed ??= { ...variables };
    completed[name] = valueFromASTUntyped(definition.defaultValue);
  }
  return completed ?? variables;
}

const unresolvable = (message: string) =>
  new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400, headers: new HeaderMap() } } });

/**
 * The operation as it will execute, settled before anything else looks at it (registered first):
 *
 * - it must resolve to one operation of a root type the schema has: several operations without an
 *   `operationName`, an unknown name or a subscription are the client's mistake (400), not a fault
 *   of the query planner's (which would answer 500);
 * - the subgraphs receive the variables it executes with. The query planner copies a variable's
 *   type into each subgraph operation but not its default, so `query ($m: Int! = 5)` without `m`
 *   would reach a subgraph as a missing required variable; and the limits (useQueryLimits) measure
 *   the operation with the same variables.
 */
export function useExecutableOperation(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, request, schema, contextValue }) {
          if (!operation) {
            contextValue.rejected = true;
            throw unresolvable(
              request.operationName
                ? `No operation named "${request.operationName}" in the document.`
                : 'The document has several operations: name one in operationName.',
            );
          }
          if (!schema.getRootType(operation.operation)) {
            contextValue.rejected = true;
            throw unresolvable(`This schema has no ${operation.operation}s.`);
          }
          if (operation.variableDefinitions?.length) request.variables = withDefaults(operation, request.variables ?? {});
        },
      };
    },
  };
}
