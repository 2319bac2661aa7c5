import { isPage, type Route as SurfaceRoute } from '../../../../rest-adapter/core/route';

/** A route of any surface (each surface names its own security schemes). */
type Route = SurfaceRoute<string>;
import type { TestApp } from '../../../support/platform/app';
import type { Reply } from '../../../support/platform/http';

/**
 * The replay behind the OpenAPI conformance test: for every operation a surface documents, one
 * request per documented status (success and errors). Most requests follow from the route table
 * alone (no credential → 401, a client credential on an administrator route → 403, …); the rest
 * come from the surface's fixture (test/platform/contract/conformance/<surface>.ts), which also supplies the
 * credentials. A documented status that neither can produce is reported, not skipped.
 */

export interface ReplayRequest {
  method: string;
  /** Concrete path, with its query string. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * `fault`: the same surface behind a gateway that fails every operation with an internal error (what
   * a documented 500 looks like); `unavailable`: behind a gateway that cannot be reached (503).
   */
  target?: 'system' | 'fault' | 'unavailable';
  /**
   * A redirect: Prism's proxy follows redirects (node-fetch's default), so it would judge the target's
   * answer; a redirect goes to the surface itself, and the test checks its status and Location
   * against the document.
   */
  redirect?: boolean;
}

/** The answer to a replayed request (body parsed when JSON, `text` as it came). */
export type ReplayResponse = Reply;

/** The credentials of a surface, as the headers (or query parameters) that carry them. */
export interface SurfaceCredentials {
  /** A valid credential of the kind the surface's ordinary routes take. */
  valid: Record<string, string>;
  /** A credential with administrator rights (routes with security `adminKey`). */
  admin: Record<string, string>;
  /** A valid credential without administrator rights. */
  client: Record<string, string>;
  /** A valid credential whose quota is used up. */
  exhausted: Record<string, string>;
  /** Credentials of the surface's other security names (e.g. the finance admin console's `session`). */
  bySecurity?: Record<string, Record<string, string>>;
}

export interface CaseContext {
  t: TestApp;
  route: Route;
  credentials: SurfaceCredentials;
  /** The credential headers this route's security asks for. */
  routeCredentials: Record<string, string>;
  /** Whatever the fixture's setUp keeps for its recipes. */
  state: Record<string, unknown>;
}

export interface Recipe {
  request(ctx: CaseContext): ReplayRequest | Promise<ReplayRequest>;
  /** Brings the system into the state the case needs (e.g. a retrain running). */
  before?(ctx: CaseContext): Promise<void>;
  /** Undoes it, knowing the response. */
  after?(ctx: CaseContext, response: ReplayResponse): Promise<void>;
  /** Whether the request itself matches the document (false: wrong on purpose). Default: by status. */
  validRequest?: boolean;
}

export interface SurfaceFixture {
  /** Settings the system needs for every documented case (e.g. the inbound-mail secret). */
  env?: Record<string, string>;
  /** Starts what the system needs before it starts (local provider servers): their settings, and how to stop them. */
  start?(): Promise<{ env: Record<string, string>; stop(): Promise<void> }>;
  setUp(t: TestApp, state: Record<string, unknown>): Promise<SurfaceCredentials>;
  /** Recipes by "<METHOD> <route path> <status>", for what the route table alone cannot produce. */
  recipes: Record<string, Recipe>;
  /** Runs before every case (e.g. keeps a credential's rate window used up for the 429 cases). */
  beforeCase?(ctx: CaseContext, status: number): Promise<void>;
}

export interface ReplayCase {
  route: Route;
  status: number;
  recipe: Recipe;
  name: string;
}

const OVERSIZED = 200 * 1024; // over the surfaces' body limit (REST_BODY_LIMIT, 100kb)
const BODY_TYPE = { json: 'application/json', form: 'application/x-www-form-urlencoded', text: 'message/rfc822', binary: 'application/octet-stream' } as const;
/** Statuses whose request is wrong on purpose: the document is expected to disagree with it. */
const INVALID_REQUEST = new Set([400, 401, 413, 415]);

const caseName = (route: Route, status: number) => `${route.method} ${route.path} ${status}`;

function credentialsFor(route: Route, credentials: SurfaceCredentials): Record<string, string> {
  if (route.security === 'none') return {};
  return credentials.bySecurity?.[route.security] ?? (route.security === 'adminKey' ? credentials.admin : credentials.valid);
}

interface DocumentedParameter {
  name: string;
  in: string;
  schema: { type?: string; enum?: unknown[]; format?: string };
}

/** A value that the parameter's schema refuses, when one follows from the schema. */
function invalidValue(p: DocumentedParameter): string | undefined {
  if (p.schema.enum) return '__not_one_of_them__';
  if (p.schema.type === 'integer' || p.schema.type === 'number') return 'not-a-number';
  if (p.schema.type === 'boolean') return 'maybe';
  return undefined;
}

/** A well-formed value of a path parameter that names nothing. */
function absentValue(p: DocumentedParameter): string | undefined {
  if (p.schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (p.schema.type === 'integer') return '2147483647';
  return undefined;
}

/**
 * The cases of one route: every status its operation documents, each with the fixture's recipe or
 * one derived from the route table; `missing` lists the statuses neither can produce.
 */
export function routeCases(route: Route, operation: { responses: Record<string, unknown>; parameters?: DocumentedParameter[] }, fixture: SurfaceFixture) {
  const success = route.response.status ?? 200;
  const own = (status: number) => fixture.recipes[caseName(route, status)];
  const parameters = operation.parameters ?? [];
  const pathParameters = parameters.filter((p) => p.in === 'path');
  const bodyRequired = route.body !== undefined && !route.body.safeParse(undefined).success;
  // the request every derived case starts from: the fixture's success request, else the bare route
  const base = async (ctx: CaseContext): Promise<ReplayRequest> => {
    const recipe = own(success);
    if (recipe) return recipe.request(ctx);
    return { method: route.method, path: route.path, headers: { ...ctx.routeCredentials } };
  };
  const baseIsComplete = own(success) !== undefined || (pathParameters.length === 0 && !bodyRequired);
  const derived = (change: (r: ReplayRequest, ctx: CaseContext) => ReplayRequest | undefined): Recipe | undefined => {
    if (!baseIsComplete) return undefined;
    return { request: async (ctx) => change(await base(ctx), ctx)! };
  };
  const withoutCredentials = (r: ReplayRequest, ctx: CaseContext) => ({
    ...r,
    headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => !(k in ctx.routeCredentials))),
  });
  const withCredentials = (r: ReplayRequest, ctx: CaseContext, credential: Record<string, string>) => ({
    ...withoutCredentials(r, ctx),
    headers: { ...withoutCredentials(r, ctx).headers, ...credential },
  });

  const generic = (status: number): Recipe | undefined => {
    if (status === success) return derived((r) => r);
    switch (status) {
      case 401:
        return route.security === 'none' ? undefined : derived(withoutCredentials);
      case 403:
        return route.security === 'adminKey' ? derived((r, ctx) => withCredentials(r, ctx, ctx.credentials.client)) : undefined;
      case 429:
        return route.security === 'none' ? undefined : derived((r, ctx) => withCredentials(r, ctx, ctx.credentials.exhausted));
      case 404: {
        const values = pathParameters.map((p) => [p.name, absentValue(p)] as const);
        if (!values.length || values.some(([, v]) => v === undefined)) return undefined;
        let path = route.path;
        for (const [name, value] of values) path = path.replace(`:${name}`, value!);
        return derived((r) => ({ ...r, path }));
      }
      case 400: {
        const queryParameters = parameters.filter((p) => p.in === 'query');
        const query = queryParameters.map((p) => [p.name, invalidValue(p)] as const).find(([, v]) => v !== undefined);
        if (query) return derived((r) => ({ ...r, path: `${r.path.split('?')[0]}?${query[0]}=${encodeURIComponent(query[1]!)}` }));
        // a parameter given twice where the document describes one value
        if (queryParameters.length) {
          const name = queryParameters[0].name;
          return derived((r) => ({ ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}${name}=x&${name}=y` }));
        }
        if (route.body && (route.consumes ?? 'json') === 'json')
          return derived((r) => ({ ...r, headers: { ...r.headers, 'content-type': 'application/json' }, body: '{' }));
        if (route.body && route.consumes === 'form') return derived((r) => ({ ...r, headers: { ...r.headers, 'content-type': BODY_TYPE.form }, body: '' }));
        // a query parameter the route does not name
        if (!isPage(route)) return derived((r) => ({ ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}unknown_parameter=1` }));
        return undefined;
      }
      case 413: {
        if (!route.body) return undefined;
        const consumes = route.consumes ?? 'json';
        const padding = 'x'.repeat(OVERSIZED);
        const body = consumes === 'json' ? JSON.stringify({ padding }) : consumes === 'form' ? `padding=${padding}` : padding;
        return derived((r) => ({ ...r, headers: { ...r.headers, 'content-type': BODY_TYPE[consumes] }, body }));
      }
      case 415:
        return route.body ? derived((r) => ({ ...r, headers: { ...r.headers, 'content-type': 'application/octet-stream' }, body: 'x' })) : undefined;
      case 500:
        return derived((r) => ({ ...r, target: 'fault' }));
      case 503:
        return derived((r) => ({ ...r, target: 'unavailable' }));
      default:
        return undefined;
    }
  };

  const cases: ReplayCase[] = [];
  const missing: string[] = [];
  for (const status of Object.keys(operation.responses).map(Number)) {
    const recipe = own(status) ?? generic(status);
    if (recipe) cases.push({ route, status, recipe, name: caseName(route, status) });
    else missing.push(caseName(route, status));
  }
  return { cases, missing };
}

export const expectsValidRequest = (c: ReplayCase) => c.recipe.validRequest ?? !INVALID_REQUEST.has(c.status);

export function contextFor(t: TestApp, route: Route, credentials: SurfaceCredentials, state: Record<string, unknown>): CaseContext {
  return { t, route, credentials, routeCredentials: credentialsFor(route, credentials), state };
}
