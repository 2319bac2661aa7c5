import type { Request, RequestHandler, Response } from 'express';
import { csrfToken, protects, tokenRefusal } from '../csrf';
import { CORE_STATUS } from '../errors';
import { sendCoreError, sendReply } from '../reply';
import type { Route, RouteInput } from '../route';
import { credential } from './credential';
import { execute } from './execute';
import type { Exchange, Outcome, Stage, SurfaceRuntime } from './exchange';
import { gate } from './gate';
import { readBody, validate } from './parse';

/** A route's own short-circuit, on the body as read (e.g. a form's honeypot field filled in by a bot gets the usual answer, whatever else it holds). */
export const intercept: Stage = (x) => {
  const reply = x.route.intercept?.(x.req);
  return reply ? { reply } : undefined;
};

/** Session forms: a state-changing request of a `csrf` route carries the token; every protected request gets one for its forms. */
export const csrf: Stage = (x) => {
  const policy = x.app.surface.csrf?.(x.app.options.config);
  if (!policy || !protects(policy, x.req)) return undefined;
  if (x.route.csrf) {
    // a body that could not be read (too large, another format) has no token to check: its own answer, in the core's JSON
    const unread = x.problem && (CORE_STATUS[x.problem.kind] === 413 || CORE_STATUS[x.problem.kind] === 415) ? x.problem : undefined;
    if (unread) return { core: { kind: unread.kind, message: unread.message, fields: unread.fields } };
    const refusal = tokenRefusal(x.req);
    if (refusal) return { core: { kind: 'csrf_failed', message: refusal } };
  }
  x.input.csrfToken = csrfToken(x.req, x.res);
  return undefined;
};

/** The input's problem, once the credential and the gate have let it through. */
export const refuse: Stage = (x) => (x.problem ? { invalid: x.problem } : undefined);

/**
 * A route's stages, in order. The host, CORS and CSRF-origin checks run before them, for the whole
 * surface (rest-adapter/core/stages/request.ts); the reply is written by `answer`.
 */
export const ROUTE_STAGES: readonly Stage[] = [readBody, csrf, intercept, validate, credential, gate, refuse, execute];

/** The request handler of one route: its exchange through the stages, then the outcome written. */
export function routeHandler(route: Route<string>, app: SurfaceRuntime): RequestHandler {
  const credentials = route.credentials ?? app.surface.credentials;
  return async (req: Request, res: Response) => {
    const input: RouteInput = { params: req.params as Record<string, string>, query: {}, body: undefined, req, config: app.options.config };
    const x: Exchange = { req, res, route, app, input, credentials };
    for (const stage of ROUTE_STAGES) {
      const outcome = await stage(x);
      if (outcome) return answer(x, outcome);
    }
  };
}

/** Writes an outcome: a reply; an error in the route's own format when it has one, else the surface's error body. */
export function answer(x: Exchange, outcome: Outcome): void {
  const { req, res, route, input } = x;
  const { surface } = x.app;
  if ('answered' in outcome) return;
  if ('reply' in outcome) return sendReply(req, res, outcome.reply);
  if ('core' in outcome) return sendCoreError(res, surface, outcome.core.kind, outcome.core.message, outcome.core.fields);
  if ('invalid' in outcome) {
    const { kind, message, fields } = outcome.invalid;
    if (!route.respondError) return sendCoreError(res, surface, kind, message, fields);
    return sendReply(req, res, route.respondError({ status: CORE_STATUS[kind], code: surface.errorShape.coreCode(kind), message, fields }, input));
  }
  const mapped = outcome.error;
  // the error's headers (Retry-After, the catalogue's), unless the gateway already gave a more specific one (passHeaders)
  for (const [k, v] of Object.entries(mapped.headers)) if (!res.hasHeader(k)) res.setHeader(k, v);
  if (route.respondError) {
    const fields = mapped.details && typeof mapped.details === 'object' ? (mapped.details as Record<string, string[]>) : undefined;
    const reply = route.respondError({ status: mapped.status, code: mapped.code, message: mapped.message, fields }, input);
    // the catalogue's fields of an error (a read-only node's `checks`, …) are part of its answer in any format
    if (mapped.fields && reply.kind === 'json' && reply.body && typeof reply.body === 'object' && !Array.isArray(reply.body))
      return sendReply(req, res, { ...reply, body: { ...(reply.body as Record<string, unknown>), ...mapped.fields } });
    return sendReply(req, res, reply);
  }
  const body = surface.errorShape.body(mapped.status, mapped.code, mapped.message, mapped.details) as Record<string, unknown>;
  res.status(mapped.status).json(mapped.fields ? { ...body, ...mapped.fields } : body);
}
