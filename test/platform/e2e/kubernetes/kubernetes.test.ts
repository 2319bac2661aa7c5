import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IService } from 'kubernetes-models/v1/Service';
import { IMAGE, KUBERNETES_DIR, processSecret, SHARED_SECRETS, staleFiles } from '../../../../bin/kubernetes';
import { loadSubgraphs, PRODUCT_NAMES, subgraphFolder } from '../../../../subgraphs/products';

/** Every subgraph of the three products. */
const SUBGRAPHS = loadSubgraphs(PRODUCT_NAMES);
import { type Config } from '../../../../lib/config';
import { isSetting, loadConfig } from '../../../../subgraphs/products';
import { GATEWAY_SERVICE, keyVariable, serviceKeyEnv } from '../../../../lib/service-keys';
import type { KubernetesObject } from '../../../../lib/kubernetes/workload';
import { projectRoot } from '../../../../lib/paths';
import { LIVENESS_PATHS, READINESS_PATH } from '../../../../lib/probes';
import { surfaceEntries } from '../../../../rest-adapter/surfaces';
import { kustomize, validateObject } from '../../../support/platform/kubernetes';

/**
 * The Kubernetes manifests without a cluster, as the docker-compose test checks the compose file:
 * each overlay rendered by `kubectl kustomize`, every object valid for its kind, and every image,
 * entry point, port, probe path, setting and credential matching what the code says (SUBGRAPHS,
 * SURFACES, lib/config.ts, lib/probes.ts). The generated files must be what the code implies now.
 */

const root = projectRoot();
const dir = KUBERNETES_DIR();
const OVERLAYS = ['dev', 'production'] as const;
const SUBGRAPH_NAMES = SUBGRAPHS.map((s) => s.name);
const PROCESSES = [...SUBGRAPH_NAMES, 'gateway', 'rest-adapter', 'bot'];

/** Values standing in for the credentials an operator puts in the Secrets (shapes the configuration accepts). */
/** Sample values of the credentials the manifests reference (service keys: a real set, as `npm run service-keys` makes them). */
const SERVICE_KEYS = serviceKeyEnv(SUBGRAPHS.map((s) => s.name));
const SAMPLE_CREDENTIALS: Record<string, string> = {
  DATABASE_URL: 'postgres://matchday:secret@db.example.com:5432/matchday',
  GATEWAY_PUBLIC_KEY: SERVICE_KEYS[keyVariable(GATEWAY_SERVICE, 'public')],
  ...Object.fromEntries(SUBGRAPHS.map((s) => [`SERVICE_PUBLIC_KEY_${s.name.toUpperCase()}`, SERVICE_KEYS[keyVariable(s.name, 'public')]])),
};
/** A process's own private key (the Secret of the process: matchday-<process>). */
const privateKeyOf = (secret: string) =>
  SERVICE_KEYS[keyVariable(secret === 'matchday-gateway' ? GATEWAY_SERVICE : secret.slice('matchday-'.length), 'private')];

/** `kubectl … create secret <type> <name> … --from-literal=KEY=…` lines of deploy/kubernetes/README.md. */
function documentedSecrets(): Map<string, { type: string; keys: string[]; line: string }> {
  const readme = readFileSync(join(dir, 'README.md'), 'utf8').replace(/\\\n\s*/g, ' ');
  const secrets = new Map<string, { type: string; keys: string[]; line: string }>();
  for (const [line] of readme.matchAll(/kubectl\b[^\n]*\bcreate secret\b[^\n]*/g)) {
    const [, type, name] = /create secret (generic|tls) ([a-z0-9-]+)/.exec(line)!;
    const keys = [...line.matchAll(/--from-literal=([A-Za-z_][A-Za-z0-9_-]*)=/g)].map((m) => m[1]);
    secrets.set(name, { type, keys, line });
  }
  return secrets;
}

describe('generated manifests', () => {
  it('are what the code implies now (else: npm run k8s:generate)', () => {
    const stale = staleFiles();
    if (stale.length) throw new Error(`Stale: ${stale.join(', ')}. Run \`npm run k8s:generate\` and commit the result.`);
  });
});

describe.each(OVERLAYS)('overlays/%s', (overlay) => {
  let objects: KubernetesObject[];
  const all = <T>(kind: string) => objects.filter((o) => o.kind === kind) as unknown as T[];
  const named = <T>(kind: string, name: string) => {
    const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
    if (!found) throw new Error(`no ${kind} named ${name} in overlays/${overlay}`);
    return found as unknown as T;
  };
  const container = (d: IDeployment | IJob): IContainer => {
    const containers = d.spec!.template.spec!.containers;
    expect(containers).toHaveLength(1);
    return containers[0];
  };
  /** A container's environment as the kubelet builds it (envFrom first, env over it), credentials filled with samples. */
  const environment = (c: IContainer): Record<string, string> => {
    const env: Record<string, string> = {};
    for (const from of c.envFrom ?? []) {
      if (from.configMapRef) Object.assign(env, named<IConfigMap>('ConfigMap', from.configMapRef.name!).data);
    }
    for (const e of c.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      env[e.name] = ref ? (ref.key === 'SERVICE_PRIVATE_KEY' ? privateKeyOf(ref.name!) : SAMPLE_CREDENTIALS[ref.key!]) : e.value!;
    }
    return env;
  };
  const configOf = (name: string): Config => loadConfig(environment(container(named<IDeployment>('Deployment', name))));
  /** The ports a process listens on, as its own configuration says. */
  const listening = (name: string): number[] => {
    const config = configOf(name);
    if (name === 'gateway') return [config.GATEWAY_PORT, config.GATEWAY_INTERNAL_PORT];
    if (name === 'rest-adapter') return surfaceEntries().map(([, { port }]) => port(config));
    if (name === 'bot') return [config.BOT_PORT];
    return [config.SUBGRAPH_PORT];
  };

  beforeAll(() => {
    objects = kustomize(join(dir, 'overlays', overlay));
  });

  it('renders objects that are valid for their kind (Kubernetes API schemas; CloudNativePG fields)', () => {
    expect(objects.length).toBeGreaterThan(0);
    const invalid: string[] = [];
    for (const object of objects) {
      try {
        validateObject(object);
      } catch (err) {
        invalid.push((err as Error).message);
      }
    }
    expect(invalid).toEqual([]);
  });

  it('runs a Deployment and a Service per process; an autoscaler and a disruption budget for each but the single bot; the migration Job', () => {
    const names = (kind: string) =>
      objects
        .filter((o) => o.kind === kind)
        .map((o) => o.metadata!.name!)
        .sort();
    expect(names('Deployment')).toEqual([...PROCESSES].sort());
    expect(names('Service')).toEqual([...PROCESSES].sort());
    const scaled = PROCESSES.filter((p) => p !== 'bot').sort();
    expect(names('HorizontalPodAutoscaler')).toEqual(scaled);
    expect(names('PodDisruptionBudget')).toEqual(scaled);
    expect(names('Job')).toEqual(['migrate']);
    for (const hpa of all<{ spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number; maxReplicas: number } }>('HorizontalPodAutoscaler')) {
      expect(hpa.spec.scaleTargetRef.kind).toBe('Deployment');
      expect(names('Deployment')).toContain(hpa.spec.scaleTargetRef.name);
      expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
      // the autoscaler owns the count: a replicas field would reset it at every apply
      expect(named<IDeployment>('Deployment', hpa.spec.scaleTargetRef.name).spec!.replicas).toBeUndefined();
      if (overlay === 'production') expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    }
    // one Telegram poller per token: never two bots at once, not even during a rollout
    const bot = named<IDeployment>('Deployment', 'bot');
    expect([bot.spec!.replicas, bot.spec!.strategy!.type]).toEqual([1, 'Recreate']);
  });

  it('starts every process and the Job from the one image with `node <entry>`, an entry the build produces', () => {
    const entries: Record<string, string> = {
      gateway: 'dist/gateway/main.js',
      'rest-adapter': 'dist/rest-adapter/main.js',
      bot: 'dist/bot/main.js',
      migrate: 'dist/bin/migrate.js',
      ...Object.fromEntries(SUBGRAPH_NAMES.map((s) => [s, `dist/${subgraphFolder(s)}/index.js`])),
    };
    const workloads = [...all<IDeployment>('Deployment'), ...all<IJob>('Job')];
    const images = new Set(workloads.map((w) => container(w).image!.replace(/(@sha256:[0-9a-f]+|:[\w.-]+)$/, '')));
    expect(images.size).toBe(1);
    const [image] = images;
    expect(image === IMAGE || image.endsWith(`/${IMAGE}`)).toBe(true);
    for (const w of workloads) {
      const { command } = container(w);
      expect([w.metadata!.name, command]).toEqual([w.metadata!.name, ['node', entries[w.metadata!.name!]]]);
      const entry = command![1];
      expect(existsSync(join(root, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
      if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run \`npx tsc -p tsconfig.build.json\` first (npm test does)`);
    }
    // the Dockerfile's `USER node` is uid 1000: the pods run as that user on a read-only root
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toMatch(/^USER node$/m);
    for (const w of workloads) {
      expect(container(w).securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 1000,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
      });
    }
  });

  it('gives every process a configuration its entry point accepts, every name a setting of lib/config.ts', () => {
    for (const w of [...all<IDeployment>('Deployment'), ...all<IJob>('Job')]) {
      const c = container(w);
      const names = [
        ...(c.env ?? []).map((e) => e.name),
        ...(c.envFrom ?? []).flatMap((f) => (f.configMapRef ? Object.keys(named<IConfigMap>('ConfigMap', f.configMapRef.name!).data ?? {}) : [])),
      ];
      expect([w.metadata!.name, names.filter((n) => !isSetting(n))]).toEqual([w.metadata!.name, []]);
      const config = loadConfig(environment(c));
      expect([w.metadata!.name, config.NODE_ENV, config.HOST]).toEqual([w.metadata!.name, 'production', '0.0.0.0']);
      // the root file system is read-only: the data directory is a mounted volume
      expect(c.volumeMounts?.map((m) => m.mountPath)).toEqual(expect.arrayContaining([config.DATA_DIR, '/tmp']));
    }
    for (const name of SUBGRAPH_NAMES) {
      const c = configOf(name);
      const needs = { subgraph: name, mode: c.SUBGRAPH_MODE, database: !!c.DATABASE_URL, key: !!c.SERVICE_PRIVATE_KEY, gateway: !!c.GATEWAY_PUBLIC_KEY };
      expect(needs).toEqual({ subgraph: name, mode: 'remote', database: true, key: true, gateway: true });
    }
    // the gateway signs for the subgraphs and checks each subgraph's key
    const gateway = configOf('gateway');
    expect([!!gateway.SERVICE_PRIVATE_KEY, Object.keys(gateway.servicePublicKeys).sort()]).toEqual([true, [...SUBGRAPH_NAMES].sort()]);
    expect(configOf('rest-adapter').GATEWAY_URL).toBeDefined();
    expect(loadConfig(environment(container(named<IJob>('Job', 'migrate')))).DATABASE_URL).toBeDefined();
  });

  it('declares, serves and probes the ports each process listens on: liveness /healthz, readiness READINESS_PATH', () => {
    for (const name of PROCESSES) {
      const c = container(named<IDeployment>('Deployment', name));
      const ports = c.ports!.map((p) => p.containerPort);
      expect([name, ports]).toEqual([name, listening(name)]);
      if (name === 'rest-adapter') expect(c.ports!.map((p) => p.name)).toEqual(surfaceEntries().map(([surface]) => surface));
      const portNames = c.ports!.map((p) => p.name);
      for (const [probe, path] of [
        [c.livenessProbe, LIVENESS_PATHS[0]],
        [c.readinessProbe, READINESS_PATH],
        [c.startupProbe, LIVENESS_PATHS[0]],
      ] as const) {
        expect([name, probe?.httpGet?.path]).toEqual([name, path]);
        expect(portNames).toContain(probe!.httpGet!.port);
      }
      const service = named<IService>('Service', name);
      const podLabels = named<IDeployment>('Deployment', name).spec!.template.metadata!.labels!;
      expect(podLabels).toMatchObject(service.spec!.selector!);
      expect(service.spec!.ports!.map((p) => [p.name, p.port, p.targetPort])).toEqual(c.ports!.map((p) => [p.name, p.containerPort, p.name]));
    }
  });

  it('points every URL at a Service, on the port of the process behind it', () => {
    const target = (url: string) => {
      const u = new URL(url);
      return { service: u.hostname, port: Number(u.port), path: u.pathname };
    };
    const servicePort = (service: string, port: number) => {
      const s = named<IService>('Service', service).spec!.ports!.find((p) => p.port === port);
      expect([service, port, s !== undefined]).toEqual([service, port, true]);
      return s!;
    };
    const urls: [string, string, string][] = [];
    for (const name of PROCESSES) {
      for (const [variable, value] of Object.entries(environment(container(named<IDeployment>('Deployment', name))))) {
        if (variable === 'GATEWAY_URL' || variable.startsWith('SUBGRAPH_URL_')) urls.push([name, variable, value]);
      }
    }
    expect(
      urls
        .filter(([, v]) => v === 'GATEWAY_URL')
        .map(([n]) => n)
        .sort(),
    ).toEqual([...SUBGRAPH_NAMES, 'rest-adapter', 'bot'].sort());
    for (const [, variable, url] of urls) {
      const t = target(url);
      expect(t.path).toBe('/graphql');
      if (variable === 'GATEWAY_URL') expect(t.service).toBe('gateway');
      else expect(t.service).toBe(variable.slice('SUBGRAPH_URL_'.length).toLowerCase());
      servicePort(t.service, t.port);
      expect(listening(t.service)).toContain(t.port);
    }
    const gateway = environment(container(named<IDeployment>('Deployment', 'gateway')));
    expect(SUBGRAPH_NAMES.filter((s) => !gateway[`SUBGRAPH_URL_${s.toUpperCase()}`])).toEqual([]);
  });

  it('keeps credentials out of the manifests: Secrets referenced, each created by a documented kubectl line', () => {
    expect(all('Secret')).toEqual([]);
    const documented = documentedSecrets();
    const referenced: { secret: string; key?: string; optional: boolean; by: string }[] = [];
    for (const w of [...all<IDeployment>('Deployment'), ...all<IJob>('Job')]) {
      const c = container(w);
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (!ref) continue;
        // a setting read from a Secret comes from the key of that setting's name
        expect([e.name, ref.key]).toEqual([e.name, e.name]);
        referenced.push({ secret: ref.name!, key: ref.key, optional: !!ref.optional, by: w.metadata!.name! });
      }
      for (const f of c.envFrom ?? []) if (f.secretRef) referenced.push({ secret: f.secretRef.name!, optional: !!f.secretRef.optional, by: w.metadata!.name! });
    }
    for (const r of referenced.filter((r) => !r.optional)) {
      expect([r.by, r.secret, documented.has(r.secret)]).toEqual([r.by, r.secret, true]);
      expect(documented.get(r.secret)!.keys).toContain(r.key);
    }
    // every key of a Secret the processes read is a setting; every process's own Secret is optional
    for (const r of referenced) {
      for (const key of documented.get(r.secret)?.keys ?? []) expect([r.secret, key, isSetting(key)]).toEqual([r.secret, key, true]);
      if (!r.key) expect([r.by, r.secret, r.optional]).toEqual([r.by, `matchday-${r.by}`, true]);
    }
    for (const ingress of all<IIngress>('Ingress')) {
      for (const tls of ingress.spec!.tls ?? []) expect(documented.get(tls.secretName!)?.type).toBe('tls');
    }
  });

  it('publishes every REST surface and the gateway through the Ingress, each backend a Service port', () => {
    const backends = all<IIngress>('Ingress').flatMap((i) =>
      i.spec!.rules!.flatMap((r) => r.http!.paths.map((p) => ({ host: r.host!, service: p.backend.service!.name, port: p.backend.service!.port!.name! }))),
    );
    for (const b of backends) expect(named<IService>('Service', b.service).spec!.ports!.map((p) => p.name)).toContain(b.port);
    const published = backends.map((b) => `${b.service}:${b.port}`);
    expect(published).toEqual(expect.arrayContaining([...surfaceEntries().map(([surface]) => `rest-adapter:${surface}`), 'gateway:graphql']));
    // subgraphs are reached through the gateway only
    expect(backends.filter((b) => SUBGRAPH_NAMES.includes(b.service as never))).toEqual([]);
    expect(new Set(backends.map((b) => b.host)).size).toBe(backends.length);
    if (overlay === 'production') {
      const covered = all<IIngress>('Ingress').flatMap((i) => (i.spec!.tls ?? []).flatMap((t) => t.hosts ?? []));
      expect(backends.map((b) => b.host).filter((h) => !covered.includes(h))).toEqual([]);
    }
  });
});

describe('overlays/production: PostgreSQL as a CloudNativePG cluster', () => {
  it('is where matchday-database points, with the owner and database the cluster creates, and S3 backups', () => {
    const objects = kustomize(join(dir, 'overlays', 'production'));
    const cluster = objects.find((o) => o.kind === 'Cluster') as unknown as {
      metadata: { name: string };
      spec: {
        instances: number;
        postgresql: { parameters: Record<string, string> };
        bootstrap: { initdb: { database: string; owner: string; secret: { name: string } } };
        backup: { barmanObjectStore: { destinationPath: string; s3Credentials: Record<string, { name: string; key: string }> } };
      };
    };
    expect(cluster.spec.instances).toBeGreaterThanOrEqual(3);
    const documented = documentedSecrets();
    const url = /DATABASE_URL="?([^"\s]+)/.exec(documented.get(SHARED_SECRETS.DATABASE_URL)!.line)![1].replace(/\$\{?\w+\}?/g, 'pw');
    const u = new URL(url);
    expect([u.username, u.hostname, u.port, u.pathname]).toEqual([
      cluster.spec.bootstrap.initdb.owner,
      `${cluster.metadata.name}-rw`,
      '5432',
      `/${cluster.spec.bootstrap.initdb.database}`,
    ]);
    expect(documented.get(cluster.spec.bootstrap.initdb.secret.name)?.keys.sort()).toEqual(['password', 'username']);
    expect(cluster.spec.backup.barmanObjectStore.destinationPath).toMatch(/^s3:\/\//);
    for (const ref of Object.values(cluster.spec.backup.barmanObjectStore.s3Credentials)) expect(documented.get(ref.name)?.keys).toContain(ref.key);
    expect(Number(cluster.spec.postgresql.parameters.max_connections)).toBeGreaterThan(0);
  });

  it("gives the gateways a managed role that may only log in (their response caches LISTEN), in the URL of the gateway's own Secret", () => {
    const objects = kustomize(join(dir, 'overlays', 'production'));
    const cluster = objects.find((o) => o.kind === 'Cluster') as unknown as {
      metadata: { name: string };
      spec: { bootstrap: { initdb: { database: string; owner: string } }; managed: { roles: Record<string, unknown>[] } };
    };
    const role = cluster.spec.managed.roles.find((r) => r.name === 'matchday_gateway')!;
    expect(role).toMatchObject({ ensure: 'present', login: true, superuser: false, createdb: false, createrole: false, replication: false, bypassrls: false });
    expect(role.inRoles).toBeUndefined();
    const documented = documentedSecrets();
    const credentials = documented.get((role.passwordSecret as { name: string }).name)!;
    expect(credentials.type).toBe('generic');
    expect(credentials.line).toContain('--type=kubernetes.io/basic-auth');
    expect(credentials.line).toContain(`--from-literal=username=${role.name as string}`);
    // the gateway reads its own Secret (matchday-gateway, optional envFrom): DATABASE_URL there is the role's
    const url = /DATABASE_URL="?([^"\s]+)/.exec(documented.get(processSecret('gateway'))!.line)![1].replace(/\$\{?\w+\}?/g, 'pw');
    const u = new URL(url);
    expect([u.username, u.hostname, u.port, u.pathname]).toEqual([
      role.name,
      `${cluster.metadata.name}-rw`,
      '5432',
      `/${cluster.spec.bootstrap.initdb.database}`,
    ]);
    expect(u.username).not.toBe(cluster.spec.bootstrap.initdb.owner);
  });
});
