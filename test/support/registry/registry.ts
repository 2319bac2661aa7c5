import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { LicensingServices } from '../../../subgraphs/registry/licensing/services';
import type { TestApp } from '../platform/app';
import { graphqlAt, http, type Reply } from '../platform/http';

/** The registry surface of a test system, as a client with a licence key sees it. */
export interface RegistryClient {
  get(path: string, opts?: { key?: string | null; headers?: Record<string, string> }): Promise<RegistryResponse>;
  post(path: string, body?: unknown, opts?: { key?: string | null; headers?: Record<string, string> }): Promise<RegistryResponse>;
}

/** An answer of the registry's surface (the platform's HTTP reply). */
export type RegistryResponse = Reply;

export function registryClient(t: TestApp, defaultKey: string): RegistryClient {
  const headers = (key: string | null | undefined, extra: Record<string, string> = {}) => ({
    ...(key === null ? {} : { 'x-license-key': key ?? defaultKey }),
    ...extra,
  });
  return {
    get: (path, opts = {}) => http(`${t.urls.registry}${path}`, { headers: headers(opts.key, opts.headers) }),
    post: (path, body, opts = {}) =>
      http(`${t.urls.registry}${path}`, {
        method: 'POST',
        headers: headers(opts.key, body === undefined ? opts.headers : { 'content-type': 'application/json', ...opts.headers }),
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}

/** GraphQL through the gateway, as the administrator (or with other headers). */
export async function gql(
  t: TestApp,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = { authorization: `Bearer ${t.adminKey}` },
) {
  const res = await graphqlAt(t.urls.gateway, query, { variables, headers });
  return res.body as { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };
}

/**
 * A fresh licence of the demo organisation for finance-node on a plan of its own (so that tests do not
 * share seats): `maxNodes`, maintenance end, validity end.
 */
export async function createLicence(
  t: { app: { services: { licensing: LicensingServices } } },
  opts: { maxNodes?: number; maintenanceUntil?: string; expiresAt?: Date | null; heartbeatIntervalSeconds?: number; heartbeatDriftSeconds?: number } = {},
): Promise<{ key: string; id: string }> {
  const { licensing } = t.app.services;
  const code = `test-${randomBytes(4).toString('hex')}`;
  await licensing.catalogue.createPlan(
    {
      product: 'finance-node',
      code,
      name: `Test plan ${code}`,
      maxNodes: opts.maxNodes ?? 3,
      heartbeatIntervalSeconds: opts.heartbeatIntervalSeconds,
      heartbeatDriftSeconds: opts.heartbeatDriftSeconds,
    },
    'test',
  );
  const { key, licence } = await licensing.licences.create(
    { organisation: 'demo', plan: `finance-node/${code}`, maintenanceUntil: opts.maintenanceUntil ?? '2099-12-31', expiresAt: opts.expiresAt ?? null },
    'test',
  );
  return { key, id: licence.id };
}

/** The demo releases by version (ids, artifacts) as the demo licence lists them. */
export async function demoReleases(
  client: RegistryClient,
): Promise<Record<string, { id: string; artifacts: { id: string; component: string; size: number; sha256: string }[] }>> {
  const res = await client.get('/api/v1/releases');
  return Object.fromEntries(res.body.data.map((r: { version: string }) => [r.version, r]));
}

/** A direct connection to the test database (assertions on what was stored). */
export async function database(t: TestApp): Promise<pg.Client> {
  const db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  return db;
}

/** The CSRF token a workspace form carries, in its cookie and in the form alike (a browser's double submit). */
export const WORKSPACE_CSRF = 'c'.repeat(43);

/** POSTs a registry workspace form as a browser does: the CSRF cookie and token, and `cookie` (a session) when given. */
export function workspaceForm(t: TestApp, path: string, fields: Record<string, string>, cookie = ''): Promise<Reply> {
  return http(`${t.urls.registry}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${WORKSPACE_CSRF}${cookie ? `; ${cookie}` : ''}` },
    body: new URLSearchParams({ ...fields, csrfmiddlewaretoken: WORKSPACE_CSRF }).toString(),
  });
}

/** Signs in to the registry workspace with a password: the answer's status, and the session it set (if any). */
export async function workspaceSignIn(t: TestApp, email: string, password: string): Promise<{ status: number; session?: string }> {
  const res = await workspaceForm(t, '/workspace/login/', { email, password });
  return { status: res.status, session: /workspace_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] };
}
