import type { SubgraphDefinition } from '../lib/subgraph';
import { accessSubgraph } from '../subgraphs/access';
import { footballSubgraph } from '../subgraphs/football';
import { predictionsSubgraph } from '../subgraphs/predictions';

/** Every subgraph of the supergraph, in start order (football data first: others build on it). */
export const SUBGRAPHS: SubgraphDefinition<any>[] = [footballSubgraph, accessSubgraph, predictionsSubgraph];

/** Default URLs in the docker-compose network (one service per subgraph). */
export const composeUrl = (name: string) => `http://${name}:4000/graphql`;
