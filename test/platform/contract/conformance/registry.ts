import pg from 'pg';
import { objectStoreFor } from '../../../../lib/object-store';
import { demoImage } from '../../../../subgraphs/registry/licensing/domain/demo';
import type { TestApp } from '../../../support/platform/app';
import { createLicence, demoReleases, registryClient } from '../../../support/registry/registry';
import type { CaseContext, Recipe, ReplayRequest, SurfaceFixture } from './replay';

/**
 * The licence registry's part of the conformance replay: its credentials, and the cases that need a
 * state — releases yanked or not covered by maintenance, an artifact whose bytes never arrived, a
 * licence whose seats are taken, presigned links.
 */

interface RegistryState {
  key: string;
  /** A licence whose maintenance ended before the demo's 1.1.0 was released. */
  lapsedKey: string;
  /** A licence with one seat, taken. */
  fullKey: string;
  release: string;
  artifact: string;
  otherArtifact: string;
  /** A release of 1.1.0's time that was published and then yanked, and its artifact. */
  yankedRelease: string;
  yankedArtifact: string;
  /** An artifact of a published release whose upload link was issued and never used. */
  pendingArtifact: string;
  /** A draft release that takes uploads. */
  draftRelease: string;
  deploymentKey: string;
  /** A licence whose dead node lost its seat to another: its heartbeat is refused. */
  evictedKey: string;
  evictedDeploymentKey: string;
  /** A licence whose requests of this minute are used up. */
  exhaustedKey: string;
}

/** Requests per minute of a licence here (REGISTRY_RATE_LIMIT): what the replay sends fits, the exhausted licence spends it. */
const RATE_LIMIT = 400;

const stateOf = (ctx: CaseContext) => ctx.state as unknown as RegistryState;
const licence = (key: string) => ({ 'x-license-key': key });
const json = (body: unknown) => ({ 'content-type': 'application/json', body: JSON.stringify(body) });
const node = (hostname: string) => ({ hostname, ipAddress: '10.0.0.7', currentVersion: '1.1.0' });
let serial = 0;

function post(path: string, headers: Record<string, string>, body?: unknown): ReplayRequest {
  if (body === undefined) return { method: 'POST', path, headers };
  const { body: text, ...contentType } = json(body);
  return { method: 'POST', path, headers: { ...headers, ...contentType }, body: text };
}

/** A single-use download token for an artifact. */
async function token(ctx: CaseContext, artifact: string): Promise<string> {
  const res = await fetch(`${ctx.t.urls.registry}/api/v1/artifacts/${artifact}/authorize`, { method: 'POST', headers: licence(stateOf(ctx).key) });
  const body = (await res.json()) as { data: { token: string } };
  return body.data.token;
}

/** A presigned link to the demo artifact (the path and query of the download's redirect). */
async function presigned(ctx: CaseContext): Promise<string> {
  const { artifact } = stateOf(ctx);
  const res = await fetch(`${ctx.t.urls.registry}/api/v1/artifacts/${artifact}/download?token=${await token(ctx, artifact)}`, { redirect: 'manual' });
  const location = new URL(res.headers.get('location')!);
  return `${location.pathname}${location.search}`;
}

const manifest = (ctx: CaseContext, release: string, query = '', key = stateOf(ctx).key): ReplayRequest => ({
  method: 'GET',
  path: `/api/v1/releases/${release}/manifest${query}`,
  headers: licence(key),
});
const authorize = (ctx: CaseContext, artifact: string, key = stateOf(ctx).key) => post(`/api/v1/artifacts/${artifact}/authorize`, licence(key));
const download = (artifact: string, query: string): ReplayRequest => ({ method: 'GET', path: `/api/v1/artifacts/${artifact}/download${query}`, headers: {} });

/** A presigned upload link (path and query) for a new artifact of the draft release. */
async function uploadLink(ctx: CaseContext): Promise<string> {
  const { url } = await ctx.t.app.services.licensing.artifacts.createUpload(
    { release: stateOf(ctx).draftRelease, component: `extra-${++serial}`, filename: `extra-${serial}.tar.gz` },
    ctx.t.urls.registry,
  );
  const link = new URL(url);
  return `${link.pathname}${link.search}`;
}
const put = (path: string): ReplayRequest => ({ method: 'PUT', path, headers: { 'content-type': 'application/gzip' }, body: 'replayed bytes' });

/**
 * Two custom frontend builds of the demo organisation, as the workspace's build job records them: one
 * succeeded (its package: the demo's frontend archive), one failed. Recorded when their cases run (the
 * last of the replay), so that the manifests replayed before still name the generic frontend.
 */
async function customBuilds(ctx: CaseContext): Promise<{ succeeded: string; failed: string }> {
  if (ctx.state.builds) return ctx.state.builds as { succeeded: string; failed: string };
  const db = new pg.Client({ connectionString: ctx.t.databaseUrl });
  await db.connect();
  try {
    const { rows: orgs } = await db.query<{ id: string }>(`SELECT id FROM licensing.organisation WHERE slug = 'demo'`);
    const organisation = orgs[0].id;
    const { rows: versions } = await db.query<{ version: number }>(
      `INSERT INTO licensing.branding (organisation_id, version, display_name, primary_color, accent_color, created_by)
       SELECT $1, coalesce(max(version), 0) + 1, 'Conformance', '#1f4e79', '#0b6e4f', 'conformance' FROM licensing.branding WHERE organisation_id = $1
       RETURNING version`,
      [organisation],
    );
    const { rows: artifacts } = await db.query<{ key: string; filename: string; size: string; sha256: string }>(
      `SELECT object_key AS key, filename, size, sha256 FROM licensing.artifact WHERE id = $1`,
      [stateOf(ctx).artifact],
    );
    const a = artifacts[0];
    const pkg = { key: a.key, filename: a.filename, contentType: 'application/gzip', size: Number(a.size), sha256: a.sha256 };
    const build = async (status: string, frontend: unknown) =>
      (
        await db.query<{ id: string }>(
          `INSERT INTO licensing.frontend_build (organisation_id, branding_version, status, progress, frontend, requested_by, finished_at)
           VALUES ($1, $2, $3, 100, $4, 'conformance', now()) RETURNING id`,
          [organisation, versions[0].version, status, frontend],
        )
      ).rows[0].id;
    const builds = { failed: await build('failed', null), succeeded: await build('succeeded', pkg) };
    ctx.state.builds = builds;
    return builds;
  } finally {
    await db.end();
  }
}
const customFrontend = (build: string, key: string): ReplayRequest => ({
  method: 'GET',
  path: `/api/v1/custom-frontends/${build}/download`,
  headers: licence(key),
});

const checkUpdate = (product: string) => `/api/v1/releases/check-update?product=${product}&channel=stable&current_version=1.0.0`;

const recipes: Record<string, Recipe> = {
  'GET /api/v1/releases/check-update 200': {
    request: (ctx) => ({ method: 'GET', path: checkUpdate('finance-node'), headers: licence(stateOf(ctx).key) }),
  },
  'GET /api/v1/releases/check-update 403': {
    // a product the licence does not cover
    request: (ctx) => ({ method: 'GET', path: checkUpdate('conformance-other'), headers: licence(stateOf(ctx).key) }),
  },
  'GET /api/v1/releases/check-update 404': {
    request: (ctx) => ({
      method: 'GET',
      path: '/api/v1/releases/check-update?product=no-such-product&channel=stable&current_version=1.0.0',
      headers: licence(stateOf(ctx).key),
    }),
  },

  'GET /api/v1/releases/:releaseId/manifest 200': { request: (ctx) => manifest(ctx, stateOf(ctx).release) },
  'GET /api/v1/releases/:releaseId/manifest 400': { request: (ctx) => manifest(ctx, stateOf(ctx).release, '?format=helm') },
  'GET /api/v1/releases/:releaseId/manifest 403': { request: (ctx) => manifest(ctx, stateOf(ctx).release, '', stateOf(ctx).lapsedKey) },
  'GET /api/v1/releases/:releaseId/manifest 410': { request: (ctx) => manifest(ctx, stateOf(ctx).yankedRelease) },

  'POST /api/v1/artifacts/:artifactId/authorize 200': { request: (ctx) => authorize(ctx, stateOf(ctx).artifact) },
  'POST /api/v1/artifacts/:artifactId/authorize 403': { request: (ctx) => authorize(ctx, stateOf(ctx).artifact, stateOf(ctx).lapsedKey) },
  'POST /api/v1/artifacts/:artifactId/authorize 409': { request: (ctx) => authorize(ctx, stateOf(ctx).pendingArtifact) },
  'POST /api/v1/artifacts/:artifactId/authorize 410': { request: (ctx) => authorize(ctx, stateOf(ctx).yankedArtifact) },

  'GET /api/v1/artifacts/:artifactId/download 302': {
    request: async (ctx) => ({ ...download(stateOf(ctx).artifact, `?token=${await token(ctx, stateOf(ctx).artifact)}`), redirect: true }),
  },
  'GET /api/v1/artifacts/:artifactId/download 401': {
    // neither a token nor a licence key
    request: (ctx) => download(stateOf(ctx).artifact, ''),
    validRequest: false,
  },
  'GET /api/v1/artifacts/:artifactId/download 404': {
    request: (ctx) => ({ ...download('00000000-0000-4000-8000-000000000000', ''), headers: licence(stateOf(ctx).key) }),
  },
  'GET /api/v1/artifacts/:artifactId/download 429': {
    request: (ctx) => ({ ...download(stateOf(ctx).artifact, ''), headers: licence(stateOf(ctx).exhaustedKey) }),
  },
  'GET /api/v1/artifacts/:artifactId/download 403': {
    // a token authorised for another artifact
    request: async (ctx) => download(stateOf(ctx).artifact, `?token=${await token(ctx, stateOf(ctx).otherArtifact)}`),
  },
  'GET /api/v1/artifacts/:artifactId/download 409': {
    request: (ctx) => ({ ...download(stateOf(ctx).pendingArtifact, ''), headers: licence(stateOf(ctx).key) }),
  },
  'GET /api/v1/artifacts/:artifactId/download 410': {
    // a token used once already
    request: async (ctx) => {
      const used = await token(ctx, stateOf(ctx).artifact);
      await fetch(`${ctx.t.urls.registry}/api/v1/artifacts/${stateOf(ctx).artifact}/download?token=${used}`, { redirect: 'manual' });
      return download(stateOf(ctx).artifact, `?token=${used}`);
    },
  },

  'POST /api/v1/deployments/register 201': {
    request: (ctx) => post('/api/v1/deployments/register', licence(stateOf(ctx).key), node(`replay-${++serial}.example.com`)),
  },
  'POST /api/v1/deployments/register 422': {
    request: (ctx) => post('/api/v1/deployments/register', licence(stateOf(ctx).fullKey), node(`replay-${++serial}.example.com`)),
  },
  'POST /api/v1/deployments/heartbeat 200': {
    request: (ctx) =>
      post('/api/v1/deployments/heartbeat', licence(stateOf(ctx).key), {
        deploymentKey: stateOf(ctx).deploymentKey,
        metrics: { status: 'healthy', uptimeSeconds: 60 },
      }),
  },
  'POST /api/v1/deployments/heartbeat 404': {
    request: (ctx) =>
      post('/api/v1/deployments/heartbeat', licence(stateOf(ctx).key), { deploymentKey: 'dep_unknown', metrics: { status: 'healthy', uptimeSeconds: 60 } }),
  },

  'POST /api/v1/deployments/heartbeat 422': {
    request: (ctx) =>
      post('/api/v1/deployments/heartbeat', licence(stateOf(ctx).evictedKey), {
        deploymentKey: stateOf(ctx).evictedDeploymentKey,
        metrics: { status: 'healthy', uptimeSeconds: 60 },
      }),
  },

  'GET /api/v1/objects/:key 400': {
    // a key the object store does not accept (well-formed for the document: a string)
    request: () => ({ method: 'GET', path: '/api/v1/objects/_not-a-key?expires=1&signature=AAAA', headers: {} }),
    validRequest: true,
  },
  'PUT /api/v1/objects/:key 200': { request: async (ctx) => put(await uploadLink(ctx)) },
  'PUT /api/v1/objects/:key 400': {
    request: () => put('/api/v1/objects/_not-a-key?expires=1&signature=AAAA'),
    validRequest: true,
  },
  'PUT /api/v1/objects/:key 403': { request: async (ctx) => put((await uploadLink(ctx)).replace(/signature=[^&]+/, 'signature=AAAA')) },
  'GET /api/v1/custom-frontends/:buildId/download 302': {
    request: async (ctx) => ({ ...customFrontend((await customBuilds(ctx)).succeeded, stateOf(ctx).key), redirect: true }),
  },
  'GET /api/v1/custom-frontends/:buildId/download 404': {
    // a build of another organisation is as unknown as one that never was
    request: (ctx) => customFrontend('00000000-0000-4000-8000-000000000000', stateOf(ctx).key),
  },
  'GET /api/v1/custom-frontends/:buildId/download 409': {
    request: async (ctx) => customFrontend((await customBuilds(ctx)).failed, stateOf(ctx).key),
  },

  'GET /api/v1/objects/:key 200': { request: async (ctx) => ({ method: 'GET', path: await presigned(ctx), headers: {} }) },
  'GET /api/v1/objects/:key 403': {
    // the signature of another link
    request: async (ctx) => ({ method: 'GET', path: (await presigned(ctx)).replace(/signature=[^&]+/, 'signature=AAAA'), headers: {} }),
  },
  'GET /api/v1/objects/:key 404': {
    // a well-signed link to an object that is not there
    request: async (ctx) => {
      const { url } = await objectStoreFor(ctx.t.config).presign('conformance/no-such-object', {
        method: 'GET',
        expiresInSeconds: 300,
        baseUrl: ctx.t.urls.registry,
      });
      const link = new URL(url);
      return { method: 'GET', path: `${link.pathname}${link.search}`, headers: {} };
    },
  },
  'GET /api/v1/objects/:key 416': {
    request: async (ctx) => ({ method: 'GET', path: await presigned(ctx), headers: { range: 'bytes=999999999-' } }),
  },
};

/** Uses up what is left of the licence's current minute, so that its next request is a 429. */
async function exhaust(t: TestApp, key: string): Promise<void> {
  const client = registryClient(t, key);
  for (let attempt = 0; attempt < 3; attempt++) {
    const probe = await client.get('/api/v1/license');
    if (probe.status === 429) return;
    const remaining = Number(probe.headers.get('x-ratelimit-remaining') ?? RATE_LIMIT);
    for (let sent = 0; sent < remaining; sent += 50) {
      await Promise.all(Array.from({ length: Math.min(50, remaining - sent) }, () => client.get('/api/v1/license')));
    }
  }
  throw new Error('the licence kept its allowance');
}

export const registryFixture: SurfaceFixture = {
  env: { REGISTRY_RATE_LIMIT: String(RATE_LIMIT) },
  beforeCase: async (ctx, status) => {
    if (status === 429) await exhaust(ctx.t, stateOf(ctx).exhaustedKey);
  },
  async setUp(t: TestApp, state) {
    const s = state as unknown as RegistryState;
    const licensing = t.app.services.licensing;

    // first, as it moves the clock of the cull: a node of a one-seat licence dies, another takes the seat
    const evicted = await createLicence(t, { maxNodes: 1, heartbeatIntervalSeconds: 3600, heartbeatDriftSeconds: 300 });
    const dying = await registryClient(t, evicted.key).post('/api/v1/deployments/register', node('evicted.example.com'));
    expect(dying.status).toBe(201);
    await licensing.deployments.cull(new Date(new Date(dying.body.data.registeredAt).getTime() + 3 * 3600_000));
    expect((await registryClient(t, evicted.key).post('/api/v1/deployments/register', node('successor.example.com'))).status).toBe(201);
    s.evictedKey = evicted.key;
    s.evictedDeploymentKey = dying.body.data.deploymentKey;

    s.key = (await licensing.demoLicence()).licenceKey;
    s.lapsedKey = (await createLicence(t, { maintenanceUntil: '2025-03-01' })).key;
    s.fullKey = (await createLicence(t, { maxNodes: 1 })).key;
    const client = registryClient(t, s.key);
    const releases = await demoReleases(client);
    s.release = releases['1.1.0'].id;
    s.artifact = releases['1.1.0'].artifacts.find((a) => a.component === 'backend')!.id;
    s.otherArtifact = releases['1.1.0'].artifacts.find((a) => a.component !== 'backend')!.id;

    // a release with every component uploaded, published, then withdrawn
    const yanked = await licensing.releases.create({ product: 'finance-node', version: '1.0.1', channel: 'stable' }, 'test');
    const yankedArtifacts = [];
    for (const component of ['backend', 'frontend'] as const) {
      const image = demoImage('1.0.1', component, new Date('2025-01-15T00:00:00Z'));
      yankedArtifacts.push(await licensing.artifacts.upload({ release: yanked.id, component }, image.archive, {}, 'test'));
    }
    await licensing.releases.publish(yanked.id, 'test');
    await licensing.releases.yank(yanked.id, 'test', 'replayed as withdrawn');
    s.yankedRelease = yanked.id;
    s.yankedArtifact = yankedArtifacts[0].id;

    // a published release with an extra component whose bytes never arrived
    const pending = await licensing.releases.create({ product: 'finance-node', version: '1.0.2', channel: 'stable' }, 'test');
    for (const component of ['backend', 'frontend'] as const) {
      const image = demoImage('1.0.2', component, new Date('2025-01-20T00:00:00Z'));
      await licensing.artifacts.upload({ release: pending.id, component }, image.archive, {}, 'test');
    }
    s.pendingArtifact = (
      await licensing.artifacts.createUpload({ release: pending.id, component: 'docs', filename: 'docs.tar.gz' }, t.urls.registry)
    ).artifact.id;
    await licensing.releases.publish(pending.id, 'test');
    s.draftRelease = (await licensing.releases.create({ product: 'finance-node', version: '1.0.3', channel: 'stable' }, 'test')).id;

    // the one seat of the full licence, and a node of the demo licence that heartbeats
    const full = await client.post('/api/v1/deployments/register', node('seat-holder.example.com'), { key: s.fullKey });
    expect(full.status).toBe(201);
    const registered = await client.post('/api/v1/deployments/register', node('heartbeat.example.com'));
    expect(registered.status).toBe(201);
    s.deploymentKey = registered.body.data.deploymentKey;

    // a product of another licence (check-update 403)
    await licensing.catalogue.createProduct(
      { code: 'conformance-other', name: 'Another product', manifestTemplate: { services: { app: { image: 'busybox:1' } } } },
      'test',
    );

    // a licence that spends its minute (again before each 429 case: the window is the clock's minute)
    s.exhaustedKey = (await createLicence(t)).key;

    const valid = licence(s.key);
    return { valid, admin: valid, client: valid, exhausted: licence(s.exhaustedKey) };
  },
  recipes,
};
