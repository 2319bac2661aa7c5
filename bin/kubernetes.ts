import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IEnvFromSource } from 'kubernetes-models/v1/EnvFromSource';
import type { IResourceRequirements } from 'kubernetes-models/v1/ResourceRequirements';
import { type SettingName } from '../lib/config';
import { loadConfig } from '../subgraphs/products';
import { jobObject, plainEnv, secretRef, toYaml, workloadObjects, type KubernetesObject, type Workload } from '../lib/kubernetes/workload';
import { projectRoot } from '../lib/paths';
import { LIVENESS_PATHS, READINESS_PATH } from '../lib/probes';
import { surfaceEntries } from '../rest-adapter/surfaces';
import { loadSubgraphs, PRODUCT_NAMES, subgraphFolder } from '../subgraphs/products';

/** Every subgraph of the three products. */
const SUBGRAPHS = loadSubgraphs(PRODUCT_NAMES);

/**
 * `npm run k8s:generate` writes what the Kubernetes manifests derive from the code: a Deployment,
 * Service, autoscaler and disruption budget per process (one per subgraph of SUBGRAPHS, the gateway,
 * the REST adapter with a port per surface of SURFACES, the Telegram bot), the migration Job, and
 * the dev overlay's replica counts. `npm run k8s:check` (and test/platform/e2e/kubernetes) fails when the
 * committed files differ. The rest of deploy/kubernetes/ is written by hand: kustomizations,
 * ingresses, the CloudNativePG cluster, the settings.
 */

/** The one image docker-compose.yml and the Dockerfile build; overlays set its registry and tag (kustomize `images`). */
export const IMAGE = 'matchday-supergraph';
export const PART_OF = 'matchday';
/** Plain settings every process reads (hand-written in each overlay's configMapGenerator). */
export const SETTINGS_CONFIG_MAP = 'matchday-settings';
/** Writable directory of every process (the root file system is read-only). */
const DATA_DIR = '/var/lib/matchday';
/** The Dockerfile's `USER node`. */
const NODE_USER = 1000;

/** Credentials shared by several processes, each in its own Secret (created with kubectl, see deploy/kubernetes/README.md). */
export const SHARED_SECRETS = {
  DATABASE_URL: 'matchday-database',
} satisfies Partial<Record<SettingName, string>>;

/**
 * The public keys of the services' signed principals (`npm run service-keys`): each subgraph checks
 * the gateway's, the gateway each subgraph's. Public, but kept with the private ones they pair with.
 */
export const SERVICE_KEYS_SECRET = 'matchday-service-keys';
const publicKeySetting = (subgraph: string) => `SERVICE_PUBLIC_KEY_${subgraph.toUpperCase()}`;

/** A process's own credentials (ADMIN_API_KEY, TELEGRAM_BOT_TOKEN, …): an optional Secret per process, all its keys as settings. */
export const processSecret = (process: string) => `matchday-${process}`;

type Role = 'subgraph' | 'gateway' | 'rest-adapter' | 'bot' | 'migration';

const mib = (n: number) => `${n}Mi`;
/** Requests are what a replica uses under load (bench/kubernetes-replica), limits leave room for peaks. */
const RESOURCES: Record<Role, IResourceRequirements> = {
  subgraph: { requests: { cpu: '100m', memory: mib(256) }, limits: { cpu: '1', memory: mib(512) } },
  gateway: { requests: { cpu: '250m', memory: mib(256) }, limits: { cpu: '1', memory: mib(512) } },
  'rest-adapter': { requests: { cpu: '250m', memory: mib(192) }, limits: { cpu: '1', memory: mib(384) } },
  bot: { requests: { cpu: '50m', memory: mib(128) }, limits: { cpu: '500m', memory: mib(256) } },
  migration: { requests: { cpu: '100m', memory: mib(256) }, limits: { cpu: '1', memory: mib(512) } },
};
/** The predictions subgraph fits model versions in a worker thread. */
const PER_SUBGRAPH: Record<string, IResourceRequirements> = {
  predictions: { requests: { cpu: '250m', memory: mib(512) }, limits: { cpu: '2', memory: mib(1536) } },
};
/** Production replicas (base); the dev overlay runs one of each. */
const SCALING: Record<Exclude<Role, 'bot' | 'migration'>, Workload['scaling']> = {
  subgraph: { min: 2, max: 6, cpuPercent: 70 },
  gateway: { min: 2, max: 10, cpuPercent: 70 },
  'rest-adapter': { min: 2, max: 10, cpuPercent: 70 },
};
/** The first start of a subgraph loads data (football: 33,322 matches) before it serves. */
const STARTUP_SECONDS: Record<Role, number> = { subgraph: 300, gateway: 60, 'rest-adapter': 60, bot: 60, migration: 0 };

/** The default of each setting: the manifests leave ports at their defaults, so the code's defaults are the ports. */
const defaults = loadConfig({});
const url = (service: string, port: number, path: string) => `http://${service}:${port}${path}`;
const gatewayUrl = url('gateway', defaults.GATEWAY_PORT, '/graphql');
/** Subgraphs read other domains through the gateway's internal endpoint, as their own service principal. */
const gatewayInternalUrl = url('gateway', defaults.GATEWAY_INTERNAL_PORT, '/graphql');

interface Process {
  name: string;
  role: Exclude<Role, 'migration'>;
  entry: string;
  ports: { name: string; port: number }[];
  env: Record<string, string>;
  secrets: (keyof typeof SHARED_SECRETS)[];
  /** Signs principals with its own key (SERVICE_PRIVATE_KEY of its own Secret) and checks these public keys. */
  signs?: { publicKeys: string[] };
}

/** Every long-running process of the remote topology (docker-compose.yml runs the same ones). */
export function processes(): Process[] {
  return [
    ...SUBGRAPHS.map((def): Process => ({
      name: def.name,
      role: 'subgraph',
      entry: `dist/${subgraphFolder(def.name)}/index.js`,
      ports: [{ name: 'graphql', port: defaults.SUBGRAPH_PORT }],
      env: { SUBGRAPH_MODE: 'remote', GATEWAY_URL: gatewayInternalUrl },
      secrets: ['DATABASE_URL'],
      signs: { publicKeys: ['GATEWAY_PUBLIC_KEY'] },
    })),
    {
      name: 'gateway',
      role: 'gateway',
      entry: 'dist/gateway/main.js',
      ports: [
        { name: 'graphql', port: defaults.GATEWAY_PORT },
        // where the subgraphs call it with their service principal; a NetworkPolicy should admit only them
        { name: 'internal', port: defaults.GATEWAY_INTERNAL_PORT },
      ],
      env: {
        SUBGRAPH_MODE: 'remote',
        GATEWAY_INTERNAL_HOST: '0.0.0.0',
        ...Object.fromEntries(SUBGRAPHS.map((def) => [`SUBGRAPH_URL_${def.name.toUpperCase()}`, url(def.name, defaults.SUBGRAPH_PORT, '/graphql')])),
      },
      secrets: [],
      signs: { publicKeys: SUBGRAPHS.map((def) => publicKeySetting(def.name)) },
    },
    {
      name: 'rest-adapter',
      role: 'rest-adapter',
      entry: 'dist/rest-adapter/main.js',
      ports: surfaceEntries().map(([name, { port }]) => ({ name, port: port(defaults) })),
      env: { GATEWAY_URL: gatewayUrl },
      secrets: [],
    },
    {
      name: 'bot',
      role: 'bot',
      entry: 'dist/bot/main.js',
      ports: [{ name: 'http', port: defaults.BOT_PORT }],
      env: { GATEWAY_URL: gatewayUrl },
      secrets: [],
    },
  ];
}

const COMMON_ENV = { NODE_ENV: 'production', HOST: '0.0.0.0', DATA_DIR } satisfies Partial<Record<SettingName, string>>;
const settingsFrom = (process: string): IEnvFromSource[] => [
  { configMapRef: { name: SETTINGS_CONFIG_MAP } },
  { secretRef: { name: processSecret(process), optional: true } },
];
const security = { user: NODE_USER, readOnlyRoot: true };
const writable = [
  { name: 'data', path: DATA_DIR },
  { name: 'tmp', path: '/tmp' },
];

function workload(p: Process): Workload {
  return {
    name: p.name,
    partOf: PART_OF,
    component: p.role,
    image: IMAGE,
    command: ['node', p.entry],
    ports: p.ports,
    probes: {
      port: p.ports[0].name,
      liveness: LIVENESS_PATHS[0],
      readiness: READINESS_PATH,
      startup: LIVENESS_PATHS[0],
      startupSeconds: STARTUP_SECONDS[p.role],
    },
    env: [
      ...plainEnv({ ...COMMON_ENV, ...p.env }),
      ...p.secrets.map((name) => secretRef(name, SHARED_SECRETS[name])),
      ...(p.signs ? [secretRef('SERVICE_PRIVATE_KEY', processSecret(p.name)), ...p.signs.publicKeys.map((name) => secretRef(name, SERVICE_KEYS_SECRET))] : []),
    ],
    envFrom: settingsFrom(p.name),
    resources: PER_SUBGRAPH[p.name] ?? RESOURCES[p.role],
    security,
    writable,
    // the bot is one Telegram poller per token: a second one would be refused (409)
    scaling: p.role === 'bot' ? undefined : SCALING[p.role],
  };
}

/**
 * Every subgraph's migrations and the job queue's schema, once, before new pods start: with kubectl,
 * apply it first and wait for it (deploy/kubernetes/README.md); Argo CD runs it in an earlier sync wave.
 */
function migrationJob() {
  return jobObject({
    name: 'migrate',
    partOf: PART_OF,
    component: 'migration',
    image: IMAGE,
    command: ['node', 'dist/bin/migrate.js'],
    env: [...plainEnv(COMMON_ENV), secretRef('DATABASE_URL', SHARED_SECRETS.DATABASE_URL)],
    envFrom: [{ configMapRef: { name: SETTINGS_CONFIG_MAP } }],
    resources: RESOURCES.migration,
    security,
    writable,
    deadlineSeconds: 1800,
    // Argo CD: a hook run in the wave after the settings, before the processes (wave 0); recreated at each sync
    annotations: { 'argocd.argoproj.io/hook': 'Sync', 'argocd.argoproj.io/hook-delete-policy': 'BeforeHookCreation', 'argocd.argoproj.io/sync-wave': '-1' },
  });
}

/** The dev overlay: one replica of each process (the autoscalers still scale on load). */
function devReplicas(): IHorizontalPodAutoscaler[] {
  return processes()
    .filter((p) => p.role !== 'bot')
    .map((p) => ({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: p.name },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: p.name }, minReplicas: 1, maxReplicas: 2 },
    }));
}

const HEADER = [
  'Generated by `npm run k8s:generate` from subgraphs/products.ts (PRODUCTS), rest-adapter/surfaces.ts (SURFACES),',
  'lib/config.ts and lib/probes.ts. Do not edit: CI fails when this file differs from what the code implies.',
];

/** The generated files of deploy/kubernetes/, by path, as they should be committed. */
export function generatedFiles(): Map<string, string> {
  const objects: KubernetesObject[] = processes().flatMap((p) => workloadObjects(workload(p)));
  return new Map([
    ['base/processes.yaml', toYaml(objects, [...HEADER, '', 'One Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget per process.'])],
    ['base/migration.yaml', toYaml([migrationJob()], [...HEADER, '', 'The migration Job: run it before the processes of a new release start.'])],
    ['overlays/dev/replicas.yaml', toYaml(devReplicas(), [...HEADER, '', 'Dev: one replica of each process.'])],
  ]);
}

export const KUBERNETES_DIR = () => join(projectRoot(), 'deploy', 'kubernetes');

/** The generated files that differ from the committed ones (or are missing). */
export function staleFiles(): string[] {
  const dir = KUBERNETES_DIR();
  return [...generatedFiles()]
    .filter(([path, content]) => !existsSync(join(dir, path)) || readFileSync(join(dir, path), 'utf8') !== content)
    .map(([path]) => `deploy/kubernetes/${path}`);
}

function main() {
  if (process.argv.includes('--check')) {
    const stale = staleFiles();
    if (stale.length) {
      process.stderr.write(`Stale Kubernetes manifests: ${stale.join(', ')}. Run \`npm run k8s:generate\` and commit the result.\n`);
      process.exit(1);
    }
    process.stdout.write('deploy/kubernetes/ is up to date.\n');
    return;
  }
  const dir = KUBERNETES_DIR();
  for (const [path, content] of generatedFiles()) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  process.stdout.write(`Wrote ${[...generatedFiles().keys()].map((p) => `deploy/kubernetes/${p}`).join(', ')}.\n`);
}

if (require.main === module) main();
