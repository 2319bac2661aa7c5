import { verify } from 'node:crypto';
import { parse } from 'yaml';
import { parsePublicKey, verifyLicenceToken } from '../../../lib/licence-token';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { parseYamlObjects, validateObject } from '../../support/platform/kubernetes';
import { createLicence, demoReleases, gql, registryClient, type RegistryClient } from '../../support/registry/registry';
import { http } from '../../support/platform/http';

let t: TestApp;
let demoKey: string;
let client: RegistryClient;
let releases: Awaited<ReturnType<typeof demoReleases>>;
beforeAll(async () => {
  t = await startTestApp();
  demoKey = (await t.app.services.licensing.demoLicence()).licenceKey;
  client = registryClient(t, demoKey);
  releases = await demoReleases(client);
});
afterAll(() => t?.stop());

const checkUpdate = (query: string, key?: string) => client.get(`/api/v1/releases/check-update?${query}`, { key });

describe('GET /api/v1/releases', () => {
  it("lists the product's published releases, newest first, each with its artifacts", async () => {
    const res = await client.get('/api/v1/releases');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.map((r: { version: string }) => r.version)).toEqual(['1.2.0-rc.1', '1.1.0', '1.0.0']);
    const item = res.body.data[1];
    expect(Object.keys(item)).toEqual([
      'id',
      'version',
      'channel',
      'changelog',
      'publishedAt',
      'backdatedTo',
      'maintenanceCovered',
      'manifestUrl',
      'artifacts',
    ]);
    expect(item).toMatchObject({ channel: 'stable', backdatedTo: '2025-06-02T09:00:00.000Z', maintenanceCovered: true });
    expect(item.changelog.split('\n').length).toBeGreaterThan(1);
    expect(item.manifestUrl).toBe(`${t.urls.registry}/api/v1/releases/${item.id}/manifest?format=compose`);
    expect(item.artifacts.map((a: { component: string }) => a.component)).toEqual(['backend', 'frontend']);
    for (const a of item.artifacts) {
      expect(Object.keys(a)).toEqual(['id', 'component', 'filename', 'mediaType', 'size', 'sha256', 'image', 'imageId']);
      expect(a.filename).toBe(`finance-node-${a.component}-1.1.0.docker.tar.gz`);
      expect(a).toMatchObject({ mediaType: 'application/gzip', image: `finance-node/${a.component}:1.1.0` });
      expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(a.imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(a.size).toBeGreaterThan(0);
    }
  });

  it('narrows to what a channel sees, and refuses an unknown channel', async () => {
    const versions = async (channel: string) => (await client.get(`/api/v1/releases?channel=${channel}`)).body.data.map((r: { version: string }) => r.version);
    expect(await versions('stable')).toEqual(['1.1.0', '1.0.0']);
    expect(await versions('rc')).toEqual(['1.2.0-rc.1', '1.1.0', '1.0.0']);
    expect(await versions('dev')).toEqual([]);
    const bad = await client.get('/api/v1/releases?channel=nightly');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID');
    expect(Object.keys(bad.body.error.details)).toEqual(['channel']);
  });
});

describe('GET /api/v1/releases/check-update', () => {
  it("answers the contract's envelope: the newer release on the channel, covered, with the manifest URL", async () => {
    const res = await checkUpdate('product=finance-node&channel=stable&current_version=1.0.0');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    const data = res.body.data;
    expect(Object.keys(data)).toEqual([
      'updateAvailable',
      'latestVersion',
      'channel',
      'changelog',
      'maintenanceCovered',
      'releaseId',
      'downloadUrl',
      'latestCovered',
    ]);
    expect(data).toEqual({
      updateAvailable: true,
      latestVersion: '1.1.0',
      channel: 'stable',
      changelog: expect.stringContaining('\n'),
      maintenanceCovered: true,
      releaseId: releases['1.1.0'].id,
      downloadUrl: `${t.urls.registry}/api/v1/releases/${releases['1.1.0'].id}/manifest?format=compose`,
      latestCovered: null,
    });
  });

  it('200 with updateAvailable false when nothing is newer', async () => {
    const res = await checkUpdate('product=finance-node&channel=stable&current_version=1.1.0');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ updateAvailable: false, latestVersion: '1.1.0', releaseId: releases['1.1.0'].id });
    const ahead = await checkUpdate('product=finance-node&channel=stable&current_version=2.0.0');
    expect(ahead.body.data.updateAvailable).toBe(false);
    const none = await checkUpdate('product=finance-node&channel=dev&current_version=1.0.0');
    expect(none.body.data).toMatchObject({ updateAvailable: false, latestVersion: '1.0.0', releaseId: null, downloadUrl: null });
  });

  it('follows the channels (rc sees stable; beta and alpha see rc) and SemVer precedence with prereleases', async () => {
    const latest = async (channel: string, current: string) =>
      (await checkUpdate(`product=finance-node&channel=${channel}&current_version=${current}`)).body.data;
    expect(await latest('rc', '1.1.0')).toMatchObject({ updateAvailable: true, latestVersion: '1.2.0-rc.1', channel: 'rc' });
    expect(await latest('beta', '1.0.0')).toMatchObject({ latestVersion: '1.2.0-rc.1' });
    expect(await latest('alpha', '1.2.0-beta.3')).toMatchObject({ updateAvailable: true, latestVersion: '1.2.0-rc.1' });
    expect(await latest('rc', '1.2.0-rc.1')).toMatchObject({ updateAvailable: false });
    expect(await latest('rc', '1.2.0')).toMatchObject({ updateAvailable: false });
    expect(await latest('stable', '1.1.0-rc.9')).toMatchObject({ updateAvailable: true, latestVersion: '1.1.0' });
  });

  it('orders many prereleases by SemVer precedence, not as text, and offers a final release over its candidates', async () => {
    const licensing = t.app.services.licensing;
    const product = await licensing.catalogue.createProduct(
      { code: 'ordering', name: 'Ordering', manifestTemplate: { services: { app: { image: 'busybox:1' } } } },
      'test',
    );
    await licensing.catalogue.createPlan({ product: product.id, code: 'one', name: 'One', maxNodes: 1 }, 'test');
    const { key } = await licensing.licences.create({ organisation: 'demo', plan: 'ordering/one' }, 'test');
    const publish = async (version: string, channel: string) => {
      const r = await licensing.releases.create({ product: 'ordering', version, channel }, 'test');
      await licensing.releases.publish(r.id, 'test');
    };
    for (const [v, c] of [
      ['1.0.0-beta.2', 'beta'],
      ['1.0.0-beta.11', 'beta'],
      ['1.0.0-alpha.beta', 'alpha'],
      ['1.0.0-rc.1', 'rc'],
      ['0.9.10', 'stable'],
      ['0.9.9', 'stable'],
    ]) {
      await publish(v, c);
    }
    const latest = async (channel: string, current: string) =>
      (await checkUpdate(`product=ordering&channel=${channel}&current_version=${current}`, key)).body.data.latestVersion;
    expect(await latest('stable', '0.9.2')).toBe('0.9.10');
    expect(await latest('beta', '1.0.0-beta.2')).toBe('1.0.0-rc.1');
    expect(await latest('alpha', '1.0.0-alpha.1')).toBe('1.0.0-rc.1');
    expect((await client.get('/api/v1/releases?channel=beta', { key })).body.data.map((r: { version: string }) => r.version)).toEqual([
      '1.0.0-rc.1',
      '1.0.0-beta.11',
      '1.0.0-beta.2',
      '0.9.10',
      '0.9.9',
    ]);
    await publish('1.0.0', 'stable');
    expect(await latest('rc', '1.0.0-rc.1')).toBe('1.0.0');
  });

  it('judges maintenance by the publication date (or backdatedTo) and names the newest covered release', async () => {
    // maintenance ended between 1.0.0 (2025-01-15) and 1.1.0 (2025-06-02)
    const { key } = await createLicence(t, { maintenanceUntil: '2025-03-01' });
    const stable = (await checkUpdate('product=finance-node&channel=stable&current_version=0.9.0', key)).body.data;
    expect(stable).toMatchObject({ updateAvailable: true, latestVersion: '1.1.0', maintenanceCovered: false });
    expect(stable.latestCovered).toEqual({
      version: '1.0.0',
      releaseId: releases['1.0.0'].id,
      downloadUrl: `${t.urls.registry}/api/v1/releases/${releases['1.0.0'].id}/manifest?format=compose`,
    });
    const fromCovered = (await checkUpdate('product=finance-node&channel=stable&current_version=1.0.0', key)).body.data;
    expect(fromCovered).toMatchObject({ updateAvailable: true, latestVersion: '1.1.0', maintenanceCovered: false, latestCovered: null });
    const listed = (await client.get('/api/v1/releases', { key })).body.data;
    expect(listed.map((r: { version: string; maintenanceCovered: boolean }) => [r.version, r.maintenanceCovered])).toEqual([
      ['1.2.0-rc.1', false],
      ['1.1.0', false],
      ['1.0.0', true],
    ]);
  });

  it('400 for a missing parameter or an invalid version, naming it; 404 for an unknown product; 403 for another product', async () => {
    for (const [query, field] of [
      ['channel=stable&current_version=1.0.0', 'product'],
      ['product=finance-node&current_version=1.0.0', 'channel'],
      ['product=finance-node&channel=stable', 'current_version'],
      ['product=finance-node&channel=stable&current_version=v1.0', 'current_version'],
      ['product=finance-node&channel=stable&current_version=1.0', 'current_version'],
      ['product=finance-node&channel=weekly&current_version=1.0.0', 'channel'],
    ]) {
      const res = await checkUpdate(query);
      expect([query, res.status, res.body.error.code]).toEqual([query, 400, 'INVALID']);
      expect(Object.keys(res.body.error.details)).toEqual([field]);
    }
    const unknown = await checkUpdate('product=no-such-product&channel=stable&current_version=1.0.0');
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'PRODUCT_NOT_FOUND']);
    const other = await checkUpdate('product=ordering&channel=stable&current_version=1.0.0');
    expect([other.status, other.body.error.code]).toEqual([403, 'PRODUCT_NOT_LICENSED']);
  });
});

describe('GET /api/v1/releases/<release_id>/manifest', () => {
  it('answers a compose file tailored to the licence: images with digests, licence values filled in, secrets required', async () => {
    const release = releases['1.1.0'];
    const res = await client.get(`/api/v1/releases/${release.id}/manifest?format=compose`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=finance-node-1.1.0.compose.yaml');
    const doc = parse(res.text);
    expect(Object.keys(doc.services)).toEqual(['postgres', 'backend', 'frontend']);
    const backend = doc.services.backend;
    expect(backend.image).toBe('finance-node/backend:1.1.0');
    const artifact = release.artifacts.find((a) => a.component === 'backend')!;
    expect(backend.labels['io.matchday.artifact.sha256']).toBe(artifact.sha256);
    expect(backend.labels['io.matchday.image.id']).toMatch(/^sha256:[0-9a-f]{64}$/);
    const env = backend.environment;
    const publicKey = (await client.get('/api/v1/license/public-key', { key: null })).body.data.publicKey;
    expect(env.VENDOR_PUBLIC_KEY).toBe(publicKey);
    // the registry as this request reached it, unless the customer names it as the node reaches it
    expect(env.VENDOR_LICENSE_ENGINE_URL).toBe(`\${VENDOR_LICENSE_ENGINE_URL:-${t.urls.registry}}`);
    expect(env.VENDOR_API_KEY).toBe(demoKey);
    expect(env.APP_VERSION).toBe('1.1.0');
    const verified = await verifyLicenceToken(env.VENDOR_LICENSE_TOKEN, parsePublicKey(publicKey), { audience: 'finance-node' });
    expect(verified.claims.maxNodes).toBe(10);
    for (const secret of ['FRAMEWORK_SECRET_KEY', 'SERVER_JWT_KEY', 'POSTGRES_PASSWORD']) expect(env[secret]).toMatch(new RegExp(`^\\$\\{${secret}:\\?.+\\}$`));
    // blank unless set (podman-compose 1.0 leaves `${NAME:-}` as it is)
    expect(env.VENDOR_DEPLOYMENT_ID).toBe('${VENDOR_DEPLOYMENT_ID}');
    expect(doc['x-artifacts']).toEqual(
      release.artifacts.map((a) =>
        expect.objectContaining({ id: a.id, size: a.size, sha256: a.sha256, downloadUrl: `${t.urls.registry}/api/v1/artifacts/${a.id}/download` }),
      ),
    );
  });

  it('is signed whole by the registry (x-manifest-signature, last): services, images, commands, volumes and artifacts; a changed service does not verify', async () => {
    const res = await client.get(`/api/v1/releases/${releases['1.1.0'].id}/manifest?format=compose`);
    const text: string = res.text;
    const at = text.lastIndexOf('\nx-manifest-signature:\n') + 1;
    const signed = text.slice(0, at);
    const signature = parse(text)['x-manifest-signature'];
    expect(text.slice(at)).toBe(`x-manifest-signature:\n  algorithm: Ed25519\n  keyId: ${signature.keyId}\n  signature: ${signature.signature}\n`);
    const publicKey = parsePublicKey((await client.get('/api/v1/license/public-key', { key: null })).body.data.publicKey);
    const verifies = (content: string) => verify(null, Buffer.from(content), publicKey, Buffer.from(signature.signature, 'base64'));
    expect(verifies(signed)).toBe(true);
    expect(signed).toContain('    image: finance-node/backend:1.1.0\n');
    for (const [from, to] of [
      ['    image: finance-node/backend:1.1.0\n', '    image: attacker/backend:1.1.0\n'],
      ['volumes:\n', 'volumes:\n  host:\n'],
      ['      - pgdata:/var/lib/postgresql/data\n', '      - /:/var/lib/postgresql/data\n'],
    ]) {
      expect([from, signed.includes(from)]).toEqual([from, true]);
      expect([from, verifies(signed.replace(from, to))]).toEqual([from, false]);
    }
  });

  it('defaults to compose; other formats are a 400 naming the supported ones', async () => {
    const id = releases['1.1.0'].id;
    expect((await client.get(`/api/v1/releases/${id}/manifest`)).status).toBe(200);
    const res = await client.get(`/api/v1/releases/${id}/manifest?format=helm`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'INVALID',
      message: 'Unsupported manifest format "helm"; supported: compose, kubernetes.',
      details: { format: ['must be one of: compose, kubernetes'] },
    });
  });

  it('format=kubernetes: the Kubernetes objects of the release for this licence, valid against the API schemas', async () => {
    const release = releases['1.1.0'];
    const res = await http(`${t.urls.registry}/api/v1/releases/${release.id}/manifest?format=kubernetes`, { headers: { 'x-license-key': demoKey } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=finance-node-1.1.0.kubernetes.yaml');
    const objects = parseYamlObjects(res.text);
    for (const object of objects) validateObject(object);
    const kinds = [...new Set(objects.map((o) => o.kind))];
    expect(kinds).toEqual(
      expect.arrayContaining(['Namespace', 'Secret', 'Deployment', 'Service', 'Ingress', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ConfigMap']),
    );
    // the licence's own values in a Secret: its signed licence token names this licence
    const secrets = objects.filter((o) => o.kind === 'Secret') as { stringData?: Record<string, string> }[];
    const licenceSecret = secrets.find((s) => s.stringData?.VENDOR_LICENSE_TOKEN);
    expect(licenceSecret).toBeDefined();
    expect(licenceSecret!.stringData!.VENDOR_API_KEY).toBe(demoKey);
    // the release's images, pinned by the image ids of its archives
    const images = objects.flatMap((o) => JSON.stringify(o).match(/"image":"[^"]+"/g) ?? []);
    expect(images.length).toBeGreaterThan(0);
    for (const artifact of release.artifacts) expect(res.text).toContain(artifact.sha256);
  });

  it('403 FORBIDDEN for a release published after the maintenance end; earlier releases keep working', async () => {
    const { key } = await createLicence(t, { maintenanceUntil: '2025-03-01' });
    const res = await client.get(`/api/v1/releases/${releases['1.1.0'].id}/manifest?format=compose`, { key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(res.body.error.message).toMatch(/^Maintenance expired/);
    expect(res.body.error.details).toMatchObject({ reason: 'MAINTENANCE_EXPIRED', version: '1.1.0', maintenanceUntil: '2025-03-01' });
    expect((await client.get(`/api/v1/releases/${releases['1.0.0'].id}/manifest?format=compose`, { key })).status).toBe(200);
  });

  it('404 for an unknown release or a draft, 410 for a yanked one', async () => {
    expect((await client.get('/api/v1/releases/00000000-0000-4000-8000-000000000000/manifest?format=compose')).body.error.code).toBe('RELEASE_NOT_FOUND');
    expect((await client.get('/api/v1/releases/not-a-uuid/manifest?format=compose')).status).toBe(404);
    const licensing = t.app.services.licensing;
    const draft = await licensing.releases.create({ product: 'finance-node', version: '1.3.0', channel: 'stable' }, 'test');
    expect((await client.get(`/api/v1/releases/${draft.id}/manifest?format=compose`)).status).toBe(404);
    const yank = await gql(t, 'mutation($r: String!) { yankRelease(release: $r, reason: "broken") { status yankedAt } }', { r: 'finance-node@1.2.0-rc.1' });
    expect(yank.data.yankRelease.status).toBe('yanked');
    const res = await client.get(`/api/v1/releases/${releases['1.2.0-rc.1'].id}/manifest?format=compose`);
    expect([res.status, res.body.error.code]).toEqual([410, 'RELEASE_YANKED']);
    expect((await client.get('/api/v1/releases')).body.data.map((r: { version: string }) => r.version)).toEqual(['1.1.0', '1.0.0']);
  });
});
