import { licensingSubgraph } from './licensing';

/** The licence registry's subgraphs. */
export const registrySubgraphs = [licensingSubgraph] as const;
