import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { randomUUID } from 'node:crypto';
import type { GatewayContext } from '../../../gateway/context';
import type { SubgraphDataSource } from '../../../gateway/datasources';

/** One fetch the gateway's query plan sent to a subgraph. */
export interface SubgraphCall {
  subgraph: string;
  /** The request the fetch served (its X-Request-Id). */
  requestId: string;
  query: string;
  variables: Record<string, unknown>;
}

/**
 * Records every fetch of the gateway's query plans, per subgraph, by wrapping the real data sources
 * (nothing is replaced: each call still runs). Pass `recorder.decorate` to startTestApp.
 */
export class SubgraphCallRecorder {
  readonly calls: SubgraphCall[] = [];

  readonly decorate = (subgraph: string, inner: SubgraphDataSource): SubgraphDataSource => ({
    process: (options: GraphQLDataSourceProcessOptions<GatewayContext>) => {
      const requestId = (options.context as Partial<GatewayContext>).requestId ?? '-';
      this.calls.push({ subgraph, requestId, query: options.request.query ?? '', variables: options.request.variables ?? {} });
      return inner.process(options);
    },
    call: (...args) => inner.call(...args),
  });

  /**
   * The fetches made for one request: `work` sends it with the given X-Request-Id (background work of
   * the subgraphs, which reads the supergraph too, is left out).
   */
  async forRequest<T>(work: (requestId: string) => Promise<T>): Promise<{ result: T; calls: SubgraphCall[] }> {
    const requestId = randomUUID();
    const result = await work(requestId);
    return { result, calls: this.calls.filter((c) => c.requestId === requestId) };
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      /** The recorded calls include `times` (default: at least one) fetches to the subgraph. */
      toCallSubgraph(subgraph: string, times?: number): R;
    }
  }
}

expect.extend({
  toCallSubgraph(calls: SubgraphCall[], subgraph: string, times?: number) {
    const count = calls.filter((c) => c.subgraph === subgraph).length;
    const pass = times === undefined ? count > 0 : count === times;
    const seen = calls.map((c) => c.subgraph).join(', ') || 'none';
    return {
      pass,
      message: () =>
        `expected the query plan ${pass ? 'not ' : ''}to call subgraph "${subgraph}"${times === undefined ? '' : ` ${times} time(s)`}; it called ${count} time(s) (calls: ${seen})`,
    };
  },
});
