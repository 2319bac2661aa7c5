import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { GraphQLError, type ParseOptions, type ValidationContext, type ValidationRule } from 'graphql';
import { maxExpandedFieldsRule } from './expansion';

export interface DocumentLimits {
  /** Tokens the parser reads before it gives up (graphql-js `maxTokens`): a huge document costs no more than this. */
  maxTokens: number;
  /** Fields an operation selects with its fragments expanded, `__typename` included (counted in linear time). */
  maxFields: number;
  /** Aliases in an operation, fragments expanded (`__typename` aliases count too). */
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
 * `maxTokens` (400 GRAPHQL_PARSE_FAILED); the fields each operation selects with its fragments
 * expanded are counted in linear time (each fragment once: `expansion.ts`), and GraphQL Armor's
 * max-aliases and max-directives rules (memoised per fragment too) run with graphql-js's own
 * validation (400 GRAPHQL_VALIDATION_FAILED, `extensions.limit`). Validation comes before the
 * credential is checked, so an anonymous document that would expand to millions of fields costs a
 * few milliseconds. Every `__typename` alias counts (Armor's default lets them all through, so 150
 * root `__typename` aliases passed where 31 of any other field are refused). Options
 * for the Apollo Server of the gateway: `{ ...useDocumentLimits(limits) }`.
 */
export function useDocumentLimits(limits: DocumentLimits): { parseOptions: ParseOptions; validationRules: ValidationRule[] } {
  return {
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: [
      maxExpandedFieldsRule(limits.maxFields),
      maxAliasesRule({ n: limits.maxAliases, allowList: [], propagateOnRejection: false, onReject: [refuse('aliases')] }),
      maxDirectivesRule({ n: limits.maxDirectives, propagateOnRejection: false, onReject: [refuse('directives')] }),
    ],
  };
}
