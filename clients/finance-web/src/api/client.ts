/** The finance node's REST surface, typed from its own OpenAPI document (schema.d.ts, `npm run client:types`). */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { ApiError, plainMessage } from './errors';

declare const __CLIENT_VERSION__: string;

/** The platform and version this client reports (X-Client-Platform, X-Client-Version). */
export const CLIENT_PLATFORM = 'web';
export const CLIENT_VERSION = __CLIENT_VERSION__;

export type Paths = paths;
export type Schemas<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];

const TOKEN_KEY = 'finance.access';
let token: string | null = sessionStorage.getItem(TOKEN_KEY);
const listeners = new Set<() => void>();

export const session = {
  token: () => token,
  set(next: string | null): void {
    token = next;
    if (next) sessionStorage.setItem(TOKEN_KEY, next);
    else sessionStorage.removeItem(TOKEN_KEY);
    listeners.forEach((listener) => listener());
  },
  /** The user name the access token names (its `username` claim), for re-entering the password. */
  username(): string | null {
    try {
      const payload = JSON.parse(atob((token ?? '').split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as { username?: unknown };
      return typeof payload.username === 'string' ? payload.username : null;
    } catch {
      return null;
    }
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The API's origin: the node that serves this client (same origin), unless the page names another. */
export function apiBase(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="finance-api-base"]');
  return (meta?.content || location.origin).replace(/\/$/, '');
}

/** The seven client headers of the contract (Authorization once signed in). */
export function clientHeaders(): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Request-ID': crypto.randomUUID(),
    'X-Request-Timestamp': new Date().toISOString(),
    'X-Client-Platform': CLIENT_PLATFORM,
    'X-Client-Version': CLIENT_VERSION,
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

const headersMiddleware: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries(clientHeaders())) if (!request.headers.has(name)) request.headers.set(name, value);
    if (!request.headers.has('Content-Type')) request.headers.set('Content-Type', 'application/json');
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: apiBase(), fetch: (request) => globalThis.fetch(request) });
api.use(headersMiddleware);

/** The answer's data, or an ApiError in plain language (a lost session signs out). */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'network', 'We cannot reach the service. Check your connection and try again.', {});
  }
  if (result.response.ok) return result.data as T;
  const body = (result.error && typeof result.error === 'object' ? result.error : {}) as Record<string, unknown>;
  const error = new ApiError(result.response.status, typeof body.code === 'string' ? body.code : 'error', plainMessage(result.response.status, body), body);
  if (token && (error.code === 'not_authenticated' || error.code === 'token_not_valid')) session.set(null);
  return Promise.reject(error);
}

/** A fresh Idempotency-Key: one per confirmation screen, so a double submit moves money once. */
export const idempotencyKey = (): string => crypto.randomUUID();
