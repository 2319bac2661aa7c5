import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { GraphQLError, type ParseOptions, type ValidationContext, type ValidationRule } from 'graphql';

export interface DocumentLimits {
  /** Tokens the parser reads before it gives up (graphql-js `maxTokens`): a huge document costs no more than this. */
  maxTokens: number;
  /** Aliases in an operation, fragments expanded (`__typename` aliases are free). */
  maxAliases: number;
  /** Directives in an operation, fragments expanded. */
  maxDirectives: number;
}

/** Armor's refusal as a validation error naming the limit (Armor prefixes "Syntax Error: "; it is not one). */
const refuse = (limit: 'aliases' | 'directives') => (context: ValidationContext | null, error: GraphQLError) => {
  context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { limit } }));
};

/**
 * Bounds on the document itself, checked before anything else looks at it: the parser stops after
 * `maxTokens` (400 GRAPHQL_PARSE_FAILED), and GraphQL Armor's max-aliases and max-directives rules
 * run with graphql-js's own validation (400 GRAPHQL_VALIDATION_FAILED, `extensions.limit`). Options
 * for the Apollo Server of the gateway: `{ ...useDocumentLimits(limits) }`.
 */
export function useDocumentLimits(limits: DocumentLimits): { parseOptions: ParseOptions; validationRules: ValidationRule[] } {
  return {
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: [
      maxAliasesRule({ n: limits.maxAliases, propagateOnRejection: false, onReject: [refuse('aliases')] }),
      maxDirectivesRule({ n: limits.maxDirectives, propagateOnRejection: false, onReject: [refuse('directives')] }),
    ],
  };
}
