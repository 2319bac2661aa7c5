import { accessSubgraph } from './access';
import { footballSubgraph } from './football';
import { predictionsSubgraph } from './predictions';

/** The prediction API's subgraphs, in start order (football data first: the others build on it). */
export const predictionsSubgraphs = [footballSubgraph, accessSubgraph, predictionsSubgraph] as const;
