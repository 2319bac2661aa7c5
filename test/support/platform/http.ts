/**
 * The tests' one way to speak HTTP and GraphQL to a running system: real requests (fetch, redirects
 * left to the test), the body parsed when it is JSON. Every product's tests use these; what is
 * particular to a product (its sign-in, its licence) is in test/support/<product>/.
 */

export type HeaderMap = Record<string, string>;

/** An answer: status, headers, the body (parsed when JSON, else the text) and the raw text. */
export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** A request through real HTTP; `key` becomes `Authorization: Bearer <key>`. Redirects are not followed. */
export async function http(url: string, init: RequestInit & { key?: string } = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  const res = await fetch(url, { ...init, headers, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: body as any, text };
}

export interface SurfaceOptions {
  /** The bearer key a request carries when the call names none (null in a call: no key). */
  key?: () => string | undefined;
  /** Every write (not GET or HEAD) carries a fresh Idempotency-Key unless the call names one. */
  idempotent?: boolean;
  /** Each request is aborted after this many ms (a surface that may stop answering: a killed container's). */
  timeoutMs?: number;
}

/**
 * A client of one HTTP surface whose base URL is read at each request (a test's app starts in
 * beforeAll, after the module is loaded): `url(path)`, `get(path, key)`, `post(path, key, body)` and
 * `send(method, path, key, body)`. Bodies other than undefined are sent as JSON.
 */
export function surface(base: () => string, opts: SurfaceOptions = {}) {
  const url = (path = '') => `${base()}${path}`;
  const send = (method: string, path: string, key?: string | null, body?: unknown, headers: HeaderMap = {}) => {
    const write = method !== 'GET' && method !== 'HEAD';
    const idempotency: HeaderMap = write && opts.idempotent ? { 'idempotency-key': crypto.randomUUID() } : {};
    return http(url(path), {
      method,
      key: key === null ? undefined : (key ?? opts.key?.()),
      headers: write ? { 'content-type': 'application/json', ...idempotency, ...headers } : headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: opts.timeoutMs === undefined ? undefined : AbortSignal.timeout(opts.timeoutMs),
    });
  };
  return {
    url,
    send,
    get: (path: string, key?: string | null, headers: HeaderMap = {}) => send('GET', path, key, undefined, headers),
    post: (path: string, key?: string | null, body?: unknown, headers: HeaderMap = {}) => send('POST', path, key, body, headers),
  };
}

/** What a GraphQL call may carry: a bearer key, variables, more headers. */
export interface GraphQLCall {
  key?: string;
  variables?: Record<string, unknown>;
  headers?: HeaderMap;
  /** Aborts the request (e.g. `AbortSignal.timeout(ms)` for an operation the gateway may never answer). */
  signal?: AbortSignal;
}

/**
 * The body graphqlAt sends for an operation, byte for byte: what a test signs when a request carries a
 * token over its body (a subgraph or the gateway's internal endpoint reached directly).
 */
export const graphqlBody = (query: string, variables?: Record<string, unknown>) => JSON.stringify({ query, variables });

/** A GraphQL operation through a gateway's HTTP endpoint (POST <gateway>/graphql). */
export function graphqlAt(gateway: string, query: string, opts: GraphQLCall = {}): Promise<Reply> {
  return http(`${gateway}/graphql`, {
    method: 'POST',
    key: opts.key,
    headers: { 'content-type': 'application/json', ...opts.headers },
    body: graphqlBody(query, opts.variables),
    signal: opts.signal,
  });
}

/** A test app's gateway, its URLs and administrator key (TestApp, or a child process's). */
export interface GatewayOf {
  urls: { gateway: string };
  adminKey: string;
}

/**
 * A GraphQL operation through the test app's gateway, as its administrator unless `key` names another
 * credential (null: none).
 */
export function gql(t: GatewayOf, query: string, opts: Omit<GraphQLCall, 'key'> & { key?: string | null } = {}): Promise<Reply> {
  const key = opts.key === undefined ? t.adminKey : (opts.key ?? undefined);
  return graphqlAt(t.urls.gateway, query, { ...opts, key });
}
