import type { Route } from '../route';
import { withUnavailable } from '../reply';
import { mapGraphQLError, statusOf, type GraphQLErrorLike } from '../errors';
import type { Stage } from './exchange';

/**
 * A surface's gate, as its subgraphs enforce it on every operation (the finance node's licence
 * read-only mode and maintenance): the REST core asks it only for a request whose input is refused,
 * so that the gate's answer comes first whatever the body (the finance contract: "every write returns
 * 403" on a read-only node). A request with good input meets the same gate in the subgraphs.
 */
export interface SurfaceGate {
  /** A query on the gate's state, run with the caller's credentials (e.g. `{ nodeStatus { readOnly … } }`). */
  operation: string;
  /** The routes it stands in front of (e.g. writes that the gate does not exempt), with the operation each runs. */
  applies(route: Route<string>, document: string | undefined): boolean;
  /** The refusal the state means for the route, as a GraphQL error; undefined: the gate is open. */
  refusal(data: Record<string, unknown>, route: Route<string>): GraphQLErrorLike | undefined;
}

export const gate: Stage = async (x) => {
  const { surface, options } = x.app;
  const g = surface.gate;
  if (!x.problem || !g || !g.applies(x.route, x.app.document(x.route))) return undefined;
  const outcome = await withUnavailable(x.res, surface, () => options.executor.execute(g.operation, {}, x.app.forward(x.route, x.req), x.req.id));
  if (outcome === null) return { answered: true };
  // a gate that cannot tell (its query refused) leaves the answer to the input's problem
  if (outcome.body.errors?.length || !outcome.body.data) return undefined;
  const refused = g.refusal(outcome.body.data, x.route);
  if (!refused) return undefined;
  return { error: mapGraphQLError(refused, statusOf(refused) ?? 403, surface.catalogue, surface.errorShape) };
};
