import type { Request } from 'express';
import type { RequestCredentials } from '../../../gateway/context';
import { CREDENTIAL_KINDS_HEADER, credentialCarriers, presentedCredential, type CredentialKind } from '../../../lib/credentials';
import { unauthenticated } from '../../../lib/errors';
import { withUnavailable } from '../reply';
import { mapGraphQLError } from '../errors';
import type { Exchange, Outcome, Stage } from './exchange';

/**
 * The credential stage. Every operation's credential is verified by the gateway when it runs; this
 * stage checks it earlier in two cases: before a caller hears what is wrong with its input (an
 * anonymous caller learns nothing about what a route takes), and before a binary body is read (an
 * upload streams to storage only once the caller is accepted). No credential is a 401 at once; a
 * presented one is verified by the gateway (a bare `__typename` operation, metered like any request).
 */
export const credential: Stage = async (x) => {
  const binary = x.route.consumes === 'binary' && x.app.document(x.route) !== undefined;
  if (!(x.problem || binary) || x.route.security === 'none' || !x.credentials.length) return undefined;
  return refusal(x);
};

/** The operation a route runs to have the gateway check a credential. */
const CREDENTIAL_CHECK = 'query CredentialCheck { __typename }';

async function refusal(x: Exchange): Promise<Outcome | undefined> {
  const { surface, options } = x.app;
  const presented = presentedCredential(x.credentials, { headers: x.req.headers, query: x.req.query as Record<string, unknown> });
  if (presented.kind === 'none') {
    const refused = unauthenticated();
    const mapped = mapGraphQLError({ message: refused.message, extensions: refused.extensions }, 401, surface.catalogue, surface.errorShape);
    const challenge = x.credentials.find((k) => k.challenge)?.challenge;
    if (challenge && !mapped.headers['www-authenticate']) mapped.headers = { ...mapped.headers, 'www-authenticate': challenge };
    return { error: mapped };
  }
  const outcome = await withUnavailable(x.res, surface, () => options.executor.execute(CREDENTIAL_CHECK, {}, x.app.forward(x.route, x.req), x.req.id));
  if (outcome === null) return { answered: true };
  // the check was counted like any request: its headers (X-RateLimit-*) go on whatever answer follows, a 400 too
  for (const name of surface.passHeaders ?? []) {
    const value = outcome.headers.get(name);
    if (value !== undefined) x.res.setHeader(name, value);
  }
  const error = outcome.body.errors?.[0];
  if (!error) return undefined;
  return { error: mapGraphQLError(error, outcome.status, surface.catalogue, surface.errorShape) };
}

/** Headers passed on besides the credentials. */
const TRACE_HEADERS = ['user-agent'];

/**
 * What a route forwards to the gateway: the headers and query parameters its credential kinds read,
 * and the client's address as this server determined it (never the client's own X-Forwarded-For).
 */
export function credentialForwarder(credentials: readonly CredentialKind[]): (req: Request) => RequestCredentials {
  const carriers = credentialCarriers(credentials);
  const headers = [...carriers.headers, ...TRACE_HEADERS];
  const kinds = credentials.map((k) => k.name).join(',');
  return (req) => {
    const forwarded = { headers: { [CREDENTIAL_KINDS_HEADER]: kinds } as Record<string, string>, query: {} as Record<string, string>, clientAddress: req.ip };
    for (const name of headers) {
      const value = req.headers[name];
      if (typeof value === 'string') forwarded.headers[name] = value;
    }
    for (const name of carriers.query) {
      const value = (req.query as Record<string, unknown>)[name];
      if (typeof value === 'string') forwarded.query[name] = value;
    }
    return forwarded;
  };
}
