/**
 * The finance node's Kubernetes manifests (what the registry answers for
 * `format=kubernetes`: subgraphs/registry/licensing/finance-node-kubernetes.ts, the same pure function) consumed for real by
 * `podman kube play`: the backend and the web client start from the release images, the backend
 * migrates its database and verifies its licence offline, and the probe paths the manifests name
 * answer. What podman 4.3 does not do as a cluster would is supplied here and documented in
 * docs/containers.md: Secrets become podman secrets first (podman 4.3 stores a Secret document of the
 * YAML as raw text and then refuses it at secretKeyRef, "not valid JSON": it reads a JSON map of
 * base64 values), the ports are published on free host ports (hostPort), and its httpGet probes are
 * not run (they become a curl healthcheck on port 0 for a named port, and healthchecks need systemd
 * timers): the test asks the probe paths itself. Namespace, Service, Ingress, HPA and PDB are ignored by
 * podman; a real cluster runs them (docs/containers.md says what remains to be run there).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { renderFinanceNodeKubernetes } from '../../../../subgraphs/registry/licensing/finance-node-kubernetes';
import { freePorts } from '../../../../lib/server';
import { describeContainers, engine, images, removeByPrefix, waitFor } from '../../../support/platform/containers';
import { licenceKeys, licenceToken } from '../../../support/finance/node';

type Doc = { kind: string; metadata: { name: string }; stringData?: Record<string, string>; spec?: any };

describeContainers('the finance node under podman kube play', () => {
  const prefix = `mkp${randomBytes(3).toString('hex')}`;
  const host = `${prefix}.example.com`;
  let img: ReturnType<typeof images>;
  let work: string;
  let file: string;
  let ports: { backend: number; frontend: number };
  const secrets: string[] = [];

  beforeAll(async () => {
    img = images();
    work = mkdtempSync(join(tmpdir(), 'kube-play-'));
    const [backend, frontend] = await freePorts(2);
    ports = { backend, frontend };
    await engine(['network', 'create', `${prefix}-net`]);
    await engine([
      'run', '-d', '--name', `${prefix}-pg`, '--network', `${prefix}-net`,
      '-e', 'POSTGRES_USER=finance', '-e', 'POSTGRES_PASSWORD=finance-pw', '-e', 'POSTGRES_DB=finance', img.postgres,
    ]); // prettier-ignore

    const keys = licenceKeys();
    const archive = (c: string) => ({ filename: `${c}.docker.tar.gz`, sha256: '0'.repeat(64), downloadUrl: `https://registry.example.com/${c}` });
    const rendered = renderFinanceNodeKubernetes({
      product: { code: prefix, name: 'Finance (kube play)' },
      release: { id: '00000000-0000-4000-8000-0000000000k8', version: '1.0.0', channel: 'stable' },
      licence: { id: 'lic_kube', maskedKey: 'LIC-****', organisation: 'acme', maintenanceUntil: '2030-12-31' },
      registryUrl: 'https://registry.example.com',
      generatedAt: new Date(),
      host,
      images: {
        backend: { image: img.backend, imageId: null, archive: archive('backend') },
        frontend: { image: img.frontend, imageId: null, archive: archive('frontend') },
      },
      licenceValues: {
        VENDOR_LICENSE_ENGINE_URL: 'https://registry.example.com',
        VENDOR_API_KEY: 'LIC-KUBE-PLAY',
        VENDOR_LICENSE_TOKEN: await licenceToken(keys),
        VENDOR_PUBLIC_KEY: keys.publicKeyLine,
      },
    });
    const docs = parseAllDocuments(rendered.content).map((d) => d.toJSON() as Doc | null);
    // the Secret the manifests' header tells the customer to create, beside the licence's own
    const credentials = {
      DATABASE_URL: `postgres://finance:finance-pw@${prefix}-pg:5432/finance`,
      FRAMEWORK_SECRET_KEY: 'k'.repeat(64),
      SERVER_JWT_KEY: 'j'.repeat(48),
      VENDOR_DEPLOYMENT_ID: '',
      BROKERAGE_API_KEY_ID: '',
      BROKERAGE_API_SECRET_KEY: '',
    };
    const licence = docs.find((d) => d?.kind === 'Secret')!;
    for (const [name, values] of [
      [`${prefix}-credentials`, credentials],
      [licence.metadata.name, licence.stringData!],
    ] as const) {
      const path = join(work, `${name}.json`);
      writeFileSync(path, JSON.stringify(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v).toString('base64')]))), { mode: 0o600 });
      await engine(['secret', 'create', name, path]);
      secrets.push(name);
    }
    const played = docs
      .filter((d): d is Doc => d !== null && (d.kind === 'Deployment' || d.kind === 'ConfigMap'))
      .map((d) => {
        if (d.kind !== 'Deployment') return d;
        const container = d.spec.template.spec.containers[0];
        container.ports = container.ports.map((p: { containerPort: number }) => ({
          ...p,
          hostPort: p.containerPort === 8000 ? ports.backend : ports.frontend,
        }));
        return { ...d, spec: { ...d.spec, replicas: 1 } };
      });
    file = join(work, 'finance-node.yaml');
    writeFileSync(file, played.map((d) => stringify(d)).join('---\n'));
  }, 300_000);

  afterAll(async () => {
    if (file) await engine(['kube', 'down', file]).catch(() => undefined);
    removeByPrefix(prefix);
    for (const name of secrets) await engine(['secret', 'rm', name]).catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  }, 300_000);

  /** A request to the backend under its public host name (ALLOWED_HOSTS): node:http, as fetch may not set Host. */
  const backend = (path: string) =>
    new Promise<{ status: number; json(): Promise<unknown> }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: ports.backend, path, headers: { host }, timeout: 10_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: async () => JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end();
    });

  it('plays the manifests: the backend migrates, verifies its licence and answers its probes; the web client answers', async () => {
    const started = Date.now();
    await engine(['kube', 'play', '--network', `${prefix}-net`, file], { timeoutMs: 300_000 });
    const pods = await engine(['pod', 'ps', '--format', '{{.Name}} {{.Status}}']);
    expect(pods).toMatch(new RegExp(`${prefix}-backend-pod-0 Running`));
    expect(pods).toMatch(new RegExp(`${prefix}-frontend-pod-0 Running`));

    // the readiness probe's path: every finance subgraph migrated on the pod's own database
    const ready = await waitFor('the backend /readyz', 240_000, async () => {
      const res = await backend('/readyz').catch(() => undefined);
      return res?.status === 200 ? ((await res.json()) as { checks: { subgraph: string; ready: boolean }[] }) : undefined;
    });
    console.log(`kube play: ready ${((Date.now() - started) / 1000).toFixed(1)} s after kube play`);
    expect(ready.checks.length).toBeGreaterThanOrEqual(10);
    expect(ready.checks.every((c) => c.ready)).toBe(true);
    // the liveness and startup probes' paths
    for (const path of ['/livez', '/healthz']) expect([path, (await backend(path)).status]).toEqual([path, 200]);
    // the licence from the licence Secret, verified offline: the node writes
    const node = (await (await backend('/api/v1/node/')).json()) as { version: string; read_only: boolean; licence: { status: string } };
    expect(node).toMatchObject({ version: '1.0.0', read_only: false, licence: { status: 'valid' } });
    // ALLOWED_HOSTS from the ConfigMap: another host name is refused
    const other = await fetch(`http://127.0.0.1:${ports.backend}/api/v1/node/`, { signal: AbortSignal.timeout(10_000) });
    expect(other.status).toBe(400);
    // the web client's probe and page
    const web = await waitFor('the web client', 120_000, async () => {
      const res = await fetch(`http://127.0.0.1:${ports.frontend}/healthz`).catch(() => undefined);
      return res?.status === 200 ? res : undefined;
    });
    expect(web.status).toBe(200);
  }, 600_000);
});
