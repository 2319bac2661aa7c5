import { DomainError } from '../../../lib/errors';
import { isDatabaseUnavailable } from '../../../lib/faults';
import { mapGraphQLError } from '../errors';
import { sendUnavailable, withUnavailable } from '../reply';
import type { Reply } from '../route';
import type { Exchange, Outcome, Stage } from './exchange';

/**
 * The execute stage: a route answered by the surface itself runs its `reply`; any other runs its
 * persisted operation through the gateway with the variables it builds (an idempotent route's key as
 * `$idempotencyKey`: the subgraph honours it atomically with the write, lib/idempotency.ts) and turns
 * the data into its reply. The gateway's quota headers (passHeaders) go on the response either way.
 */
export const execute: Stage = async (x) => {
  const { route, input } = x;
  const document = x.app.document(route);
  if (!document) return attempt(x, async () => ({ reply: await route.reply!(input) }));
  let variables: Record<string, unknown> = {};
  const built = await attempt(x, async () => {
    variables = { ...(route.variables ? await route.variables(input) : {}), ...(route.idempotent ? { idempotencyKey: input.idempotencyKey ?? null } : {}) };
    return undefined;
  });
  if (built) return built;
  const { surface, options } = x.app;
  const outcome = await withUnavailable(x.res, surface, () => options.executor.execute(document, variables, x.app.forward(route, x.req), x.req.id));
  if (outcome === null) return { answered: true };
  for (const name of surface.passHeaders ?? []) {
    const value = outcome.headers.get(name);
    if (value !== undefined) x.res.setHeader(name, value);
  }
  const error = outcome.body.errors?.[0];
  if (error) {
    const mapped = mapGraphQLError(error, outcome.status, surface.catalogue, surface.errorShape);
    if (mapped.status >= 500 && mapped.status !== 503) x.req.log.error({ error }, 'operation failed');
    return { error: mapped };
  }
  const data = outcome.body.data ?? {};
  const reply: Reply = route.respond ? route.respond(data, input) : { kind: 'json', status: route.response.status ?? 200, body: data };
  return { reply };
};

/** Runs a route's own code: a DomainError it throws is answered like an operation's error, anything else is a fault. */
async function attempt(x: Exchange, work: () => Promise<Outcome | undefined>): Promise<Outcome | undefined> {
  try {
    return await work();
  } catch (err) {
    if (isDatabaseUnavailable(err)) {
      sendUnavailable(x.res, x.app.surface);
      return { answered: true };
    }
    const { catalogue, errorShape } = x.app.surface;
    if (!(err instanceof DomainError)) x.req.log.error({ err }, 'route reply failed');
    const error = err instanceof DomainError ? { message: err.message, extensions: err.extensions } : { message: 'Internal server error.' };
    return { error: mapGraphQLError(error, 500, catalogue, errorShape) };
  }
}
