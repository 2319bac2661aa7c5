import { createHash } from 'node:crypto';
import { demoImage } from '../../../subgraphs/registry/licensing/domain/demo';
import { TEST_ADMIN_KEY, startTestApp, type TestApp } from '../../support/platform/app';
import { gql, registryClient } from '../../support/registry/registry';
import { http } from '../../support/platform/http';

/** The vendor's administration through GraphQL (administrator key), from a new customer to a published release. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const ok = async (query: string, variables: Record<string, unknown> = {}) => {
  const res = await gql(t, query, variables);
  expect(res.errors).toBeUndefined();
  return res.data;
};

const TEMPLATE = {
  services: {
    api: { component: 'backend', ports: ['9000:9000'], environment: { LICENCE: '{{licence.token}}', SECRET: { required: 'set SECRET' } } },
  },
};

it('creates an organisation, a product with a plan, a licence; uploads, publishes and yanks a release; suspends the licence', async () => {
  const org = (await ok('mutation { createRegistryOrganisation(input: { name: "Acme Ltd" }) { id slug name } }')).createRegistryOrganisation;
  expect(org).toMatchObject({ slug: 'acme-ltd', name: 'Acme Ltd' });
  await ok('mutation { addWorkspaceUser(input: { organisation: "acme-ltd", email: "Ops@Acme.example", name: "Ops", role: owner }) { email role } }');
  const product = (
    await ok('mutation($t: JSONObject!) { createLicensingProduct(input: { code: "acme-app", name: "Acme App", manifestTemplate: $t }) { id code } }', {
      t: TEMPLATE,
    })
  ).createLicensingProduct;
  const plan = (
    await ok(
      'mutation { createLicencePlan(input: { product: "acme-app", code: "team", name: "Team", maxNodes: 2, heartbeatIntervalSeconds: 3600, entitlements: ["enterprise-whitelabel"] }) { id maxNodes heartbeatIntervalSeconds heartbeatDriftSeconds entitlements } }',
    )
  ).createLicencePlan;
  expect(plan).toMatchObject({ maxNodes: 2, heartbeatIntervalSeconds: 3600, heartbeatDriftSeconds: 300, entitlements: ['enterprise-whitelabel'] });
  const created = (
    await ok(
      'mutation { createLicence(input: { organisation: "acme-ltd", plan: "acme-app/team", maintenanceUntil: "2030-06-30" }) { key licence { id key status maintenanceUntil } } }',
    )
  ).createLicence;
  expect(created.key).toMatch(/^LIC-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
  expect(created.licence).toMatchObject({ key: `${created.key.slice(0, 8)}-****-****`, status: 'Active', maintenanceUntil: '2030-06-30' });
  expect((await ok('query($l: String!) { licenceKey(licence: $l) }', { l: created.licence.id })).licenceKey).toBe(created.key);

  // a draft release; its artifact uploaded through a presigned link, then checked and recorded
  const release = (await ok('mutation { createRelease(input: { product: "acme-app", version: "2.0.0", channel: stable, changelog: "First." }) { id status } }'))
    .createRelease;
  expect(release.status).toBe('draft');
  const early = await gql(t, 'mutation($r: String!) { publishRelease(release: $r) { status } }', { r: release.id });
  expect(early.errors?.[0]).toMatchObject({ extensions: { code: 'CONFLICT' } });
  expect(early.errors?.[0].message).toMatch(/lacks uploaded artifacts for: backend/);
  const upload = (
    await ok(
      'mutation($r: String!, $b: String) { createArtifactUpload(input: { release: $r, component: "backend" }, baseUrl: $b) { uploadUrl contentType artifact { id status filename } } }',
      // links point at the registry surface: PUBLIC_URL_REGISTRY, or as here the address a client gives
      { r: 'acme-app@2.0.0', b: t.urls.registry },
    )
  ).createArtifactUpload;
  expect(upload.artifact).toMatchObject({ status: 'waiting', filename: 'acme-app-backend-2.0.0.docker.tar.gz' });
  const image = demoImage('2.0.0', 'backend', new Date('2026-01-01T00:00:00Z'));
  const wrongType = await fetch(upload.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: image.archive });
  expect(wrongType.status).toBe(400);
  const put = await fetch(upload.uploadUrl, { method: 'PUT', headers: { 'content-type': upload.contentType }, body: image.archive });
  expect(put.status).toBe(200);
  const artifact = (await ok('mutation($a: ID!) { completeArtifactUpload(artifactId: $a) { status size sha256 image imageId } }', { a: upload.artifact.id }))
    .completeArtifactUpload;
  expect(artifact).toEqual({
    status: 'uploaded',
    size: image.archive.length,
    sha256: createHash('sha256').update(image.archive).digest('hex'),
    image: 'finance-node/backend:2.0.0',
    imageId: image.imageId,
  });
  const published = (await ok('mutation($r: String!) { publishRelease(release: $r) { status publishedAt artifacts { component status } } }', { r: release.id }))
    .publishRelease;
  expect(published).toMatchObject({ status: 'published', artifacts: [{ component: 'backend', status: 'uploaded' }] });

  // the customer's licence sees it
  const client = registryClient(t, created.key);
  const check = await client.get('/api/v1/releases/check-update?product=acme-app&channel=stable&current_version=1.0.0');
  expect(check.body.data).toMatchObject({ updateAvailable: true, latestVersion: '2.0.0', releaseId: release.id });
  const manifest = await client.get(`/api/v1/releases/${release.id}/manifest?format=compose`);
  expect(manifest.text).toContain('SECRET: ${SECRET:?set SECRET}');

  // administrators see the whole picture in one query (relations batched)
  const view = await ok(
    '{ registryOrganisations { slug workspaceUsers { email role } licences { key nodesInUse plan { code } product { code } organisation { slug } } } licensingProducts { code plans { code maxNodes } } }',
  );
  const acme = view.registryOrganisations.find((o: { slug: string }) => o.slug === 'acme-ltd');
  expect(acme).toEqual({
    slug: 'acme-ltd',
    workspaceUsers: [{ email: 'ops@acme.example', role: 'owner' }],
    licences: [{ key: created.licence.key, nodesInUse: 0, plan: { code: 'team' }, product: { code: 'acme-app' }, organisation: { slug: 'acme-ltd' } }],
  });
  expect(view.licensingProducts.find((p: { code: string }) => p.code === product.code).plans).toEqual([{ code: 'team', maxNodes: 2 }]);

  const yanked = (await ok('mutation($r: String!) { yankRelease(release: $r) { status } }', { r: 'acme-app@2.0.0' })).yankRelease;
  expect(yanked.status).toBe('yanked');
  expect((await client.get('/api/v1/releases')).body.data).toEqual([]);

  const extended = (await ok('mutation($l: String!) { extendLicenceMaintenance(licence: $l, until: "2031-12-31") { maintenanceUntil } }', { l: created.key }))
    .extendLicenceMaintenance;
  expect(extended.maintenanceUntil).toBe('2031-12-31');
  await ok('mutation($l: String!) { suspendLicence(licence: $l, reason: "unpaid") { status } }', { l: created.key.slice(0, 8) });
  expect((await client.get('/api/v1/license')).body.error.code).toBe('LICENSE_SUSPENDED');

  const trail = (
    await ok('query($l: String!) { registryAuditEvents(licence: $l) { action actor details } }', { l: created.licence.id })
  ).registryAuditEvents.map((e: { action: string; actor: string }) => [e.action, e.actor]);
  expect(trail).toEqual([
    ['licence.suspended', `api-key:${TEST_ADMIN_KEY.slice(0, 12)}`],
    ['licence.maintenance_extended', `api-key:${TEST_ADMIN_KEY.slice(0, 12)}`],
    ['licence.created', `api-key:${TEST_ADMIN_KEY.slice(0, 12)}`],
  ]);
  const releaseTrail = (
    await ok('{ registryAuditEvents(actions: ["release.published", "release.yanked", "artifact.uploaded"], first: 3) { action subjectId } }')
  ).registryAuditEvents;
  expect(releaseTrail.map((e: { action: string }) => e.action)).toEqual(['release.yanked', 'release.published', 'artifact.uploaded']);
});

it('refuses invalid input with BAD_USER_INPUT naming the problem, and duplicates with CONFLICT', async () => {
  const cases: [string, RegExp][] = [
    ['mutation { createRegistryOrganisation(input: { name: "" }) { id } }', /name/],
    ['mutation { createRelease(input: { product: "finance-node", version: "1.4", channel: stable }) { id } }', /SemVer/],
    ['mutation { createRelease(input: { product: "finance-node", version: "1.4.0-rc.1", channel: stable }) { id } }', /prerelease/],
    ['mutation { createLicence(input: { organisation: "demo", plan: "finance-node/standard", maintenanceUntil: "2025-02-30" }) { key } }', /YYYY-MM-DD/],
    ['mutation { createLicencePlan(input: { product: "finance-node", code: "x", name: "X", maxNodes: 0 }) { id } }', /maxNodes/],
    [
      'mutation { createLicensingProduct(input: { code: "p", name: "P", manifestTemplate: { services: { a: { image: "x", environment: { A: "{{nope}}" } } } } }) { id } }',
      /placeholder/,
    ],
  ];
  for (const [query, message] of cases) {
    const res = await gql(t, query);
    expect([query, res.errors?.[0].extensions?.code]).toEqual([query, 'BAD_USER_INPUT']);
    expect(res.errors?.[0].message).toMatch(message);
  }
  const dup = await gql(t, 'mutation { createRelease(input: { product: "finance-node", version: "1.1.0", channel: stable }) { id } }');
  expect(dup.errors?.[0].extensions?.code).toBe('CONFLICT');
});

it('artifacts change only while the release is a draft; an upload that is no image archive is refused', async () => {
  const licensing = t.app.services.licensing;
  await expect(licensing.artifacts.upload({ release: 'finance-node@1.1.0', component: 'backend' }, Buffer.from('x'), {}, 'test')).rejects.toThrow(/draft/);
  const draft = await licensing.releases.create({ product: 'finance-node', version: '9.0.0', channel: 'stable' }, 'test');
  await expect(licensing.artifacts.upload({ release: draft.id, component: 'backend' }, Buffer.from('not an image'), {}, 'test')).rejects.toThrow(
    /not a valid image archive/,
  );
  expect(await licensing.releases.artifactsOf([draft.id])).toEqual([]);
});

it('a GraphQL caller without a credential gets UNAUTHENTICATED (401) on licence fields', async () => {
  const res = await http(`${t.urls.gateway}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ currentLicence { id } }' }),
  });
  expect(res.status).toBe(401);
  expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
});
