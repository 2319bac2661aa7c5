import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import type { SurfaceGate } from '../core/types';
import { READ_ONLY_EXEMPT, readOnlyError } from '../../subgraphs/finance/kernel/contract';

/** The root fields an operation document selects. */
function rootFields(document: string): string[] {
  return parse(document)
    .definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
    .flatMap((op) => op.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])));
}

/**
 * The finance node's licence gate on its REST surface: on a read-only node every write answers 403
 * LICENCE_READ_ONLY — the same answer as the subgraphs' gate gives — before its body is looked at;
 * the writes the gate exempts (sign-in, the console's settings and licence) are not in front of it.
 */
export const financeGate: SurfaceGate = {
  operation: 'query NodeGate { nodeStatus { readOnly licenceChecks } }',
  applies: (route, document) => route.method !== 'GET' && document !== undefined && !rootFields(document).every((f) => READ_ONLY_EXEMPT.has(f)),
  refusal(data) {
    const state = data.nodeStatus as { readOnly: boolean; licenceChecks: string[] } | undefined;
    if (!state?.readOnly) return undefined;
    const error = readOnlyError(state.licenceChecks);
    return { message: error.message, extensions: error.extensions };
  },
};
