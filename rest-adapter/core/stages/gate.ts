import { withUnavailable } from '../reply';
import { mapGraphQLError, statusOf } from '../errors';
import type { Stage } from './exchange';

/**
 * The gate stage: a surface's gate (types.ts, SurfaceGate) answers before an input problem, and before
 * a binary route reads its body at all (its variables stream the body to storage: a read-only node
 * must refuse before anything is read or stored).
 */

export const gate: Stage = async (x) => {
  const { surface, options } = x.app;
  const g = surface.gate;
  if (!x.problem && x.route.consumes !== 'binary') return undefined;
  if (!g || !g.applies(x.route, x.app.document(x.route))) return undefined;
  const outcome = await withUnavailable(x.res, surface, () => options.executor.execute(g.operation, {}, x.app.forward(x.route, x.req), x.req.id));
  if (outcome === null) return { answered: true };
  // a gate that cannot tell (its query refused) leaves the answer to the input's problem
  if (outcome.body.errors?.length || !outcome.body.data) return undefined;
  const refused = g.refusal(outcome.body.data, x.route);
  if (!refused) return undefined;
  return { error: mapGraphQLError(refused, statusOf(refused) ?? 403, surface.catalogue, surface.errorShape) };
};
