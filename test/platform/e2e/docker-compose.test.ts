import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadSubgraphs, PRODUCT_NAMES, subgraphFolder } from '../../../subgraphs/products';

/** Every subgraph of the three products. */
const SUBGRAPHS = loadSubgraphs(PRODUCT_NAMES);
import { type Config } from '../../../lib/config';
import { loadConfig } from '../../../subgraphs/products';
import { projectRoot } from '../../../lib/paths';
import { signRequestToken, verifyRequestToken } from '../../../lib/principal';
import { GATEWAY_SERVICE, keyVariable, parseServicePrivateKey, parseServicePublicKey, serviceKeyEnv } from '../../../lib/service-keys';
import { SURFACES } from '../../../rest-adapter/surfaces';

/**
 * No Docker engine runs in CI: the compose file is checked against the build instead. Every
 * container's command must be a compiled entry point, its environment a valid configuration, and
 * every URL must name a service of the file on the port that service listens on.
 */

interface Service {
  image?: string;
  build?: { context: string; target: string };
  command?: string[];
  environment?: Record<string, string | number | null>;
  ports?: string[];
  networks?: string[] | Record<string, { aliases?: string[]; ipv4_address?: string } | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
}

interface Network {
  internal?: boolean;
  ipam?: { config?: { subnet: string }[] };
}

const root = projectRoot();
// docker compose resolves YAML merge keys (`<<: *env`); the yaml package does when asked
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  networks: Record<string, Network | null>;
};
const services = compose.services;
const appServices = Object.entries(services).filter(([name]) => name !== 'postgres');
/** What `npm run service-keys` writes to .env, which compose reads. */
const KEYS = serviceKeyEnv(SUBGRAPHS.map((s) => s.name));

/** The environment a container gets, with `${VAR:-default}` and `${VAR:?message}` resolved as compose would. */
const SHELL = { ...KEYS, FRAMEWORK_SECRET_KEY: 'f'.repeat(64), SERVER_JWT_KEY: 'j'.repeat(48) };

/** A value of the file with its `${VAR}`, `${VAR:-default}` and `${VAR:?message}` resolved as compose would. */
function interpolate(value: string, shell: Record<string, string> = SHELL, what = value): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_m, variable: string, kind?: string, rest?: string) => {
    if (shell[variable] !== undefined) return shell[variable];
    if (kind === '?') throw new Error(`${what} requires ${variable} to be set`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

function containerEnv(service: Service, shell: Record<string, string> = SHELL): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(service.environment ?? {})) {
    if (value === null) {
      if (shell[name] !== undefined) env[name] = shell[name];
      continue;
    }
    env[name] = interpolate(String(value), shell, name);
  }
  return env;
}

const configOf = (service: Service): Config => loadConfig(containerEnv(service));

/** The ports a service listens on, as its own configuration says. */
function listeningPorts(name: string): number[] {
  const config = configOf(services[name]);
  if (name === 'gateway') return [config.GATEWAY_PORT, config.GATEWAY_INTERNAL_PORT];
  if (name === 'rest-adapter') return Object.values(SURFACES).map(({ port }) => port(config));
  if (name === 'bot') return [config.BOT_PORT];
  return [config.SUBGRAPH_PORT];
}

describe('docker-compose.yml', () => {
  it('runs postgres, one service per subgraph, the gateway, the REST adapter and the Telegram bot', () => {
    expect(Object.keys(services).sort()).toEqual(['postgres', 'gateway', 'rest-adapter', 'bot', ...SUBGRAPHS.map((s) => s.name)].sort());
    // the official image, or the one scripts/container-base.sh builds from Debian's packages
    expect(services.postgres.image).toBe('${POSTGRES_IMAGE:-postgres:16}');
  });

  it('starts every service from the built image with `node <entry>`, an entry the build produces', () => {
    const expected: Record<string, string> = {
      gateway: 'dist/gateway/main.js',
      'rest-adapter': 'dist/rest-adapter/main.js',
      bot: 'dist/bot/main.js',
      ...Object.fromEntries(SUBGRAPHS.map((s) => [s.name, `dist/${subgraphFolder(s.name)}/index.js`])),
    };
    for (const [name, service] of appServices) {
      expect(service.build).toEqual({ context: '.', target: 'app' });
      expect(service.command).toEqual(['node', expected[name]]);
      const entry = service.command![1];
      // a stale dist/ can hold files whose source is gone: the entry must come from the sources
      expect(existsSync(join(root, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
      if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run \`npx tsc -p tsconfig.build.json\` first (npm test does)`);
    }
  });

  it('runs each subgraph from its own index.ts, which is a standalone entry point', () => {
    for (const def of SUBGRAPHS) {
      const source = readFileSync(join(root, subgraphFolder(def.name), 'index.ts'), 'utf8');
      const entry = /^if \(require\.main === module\) void runStandaloneSubgraph\(\w+, \w+Product\);$/m;
      if (!entry.test(source)) {
        throw new Error(
          `${subgraphFolder(def.name)}/index.ts is no standalone entry: end it with \`if (require.main === module) void runStandaloneSubgraph(<its definition>, <its product>);\` (import from lib/subgraph-server)`,
        );
      }
    }
  });

  it('gives every service a configuration its entry point accepts', () => {
    for (const [name, service] of appServices) {
      const config = configOf(service);
      expect([name, config.HOST]).toEqual([name, '0.0.0.0']);
      expect([name, config.NODE_ENV]).toEqual([name, 'production']);
    }
    for (const def of SUBGRAPHS) {
      const c = configOf(services[def.name]);
      const needs = { subgraph: def.name, mode: c.SUBGRAPH_MODE, database: !!c.DATABASE_URL, key: !!c.SERVICE_PRIVATE_KEY, gatewayKey: !!c.GATEWAY_PUBLIC_KEY };
      expect(needs).toEqual({ subgraph: def.name, mode: 'remote', database: true, key: true, gatewayKey: true });
      expect(c.GATEWAY_URL).toBeDefined();
    }
    const gateway = configOf(services.gateway);
    expect(gateway.SERVICE_PRIVATE_KEY).toBeDefined();
    expect(Object.keys(gateway.servicePublicKeys).sort()).toEqual(SUBGRAPHS.map((s) => s.name).sort());
    expect(configOf(services['rest-adapter']).GATEWAY_URL).toBeDefined();
  });

  it('runs the bot as a client of the gateway, with its token and its own key from the shell (off without a token)', () => {
    const bot = services.bot;
    const off = configOf(bot);
    expect([off.TELEGRAM_BOT_TOKEN, off.BOT_API_KEY, off.GATEWAY_URL]).toEqual([undefined, undefined, 'http://gateway:4000/graphql']);
    const shell = { TELEGRAM_BOT_TOKEN: '123456:token-from-the-shell', BOT_API_KEY: 'mpk_key_from_the_shell_0123456789' };
    const on = loadConfig(containerEnv(bot, shell));
    expect([on.TELEGRAM_BOT_TOKEN, on.BOT_API_KEY, on.DATABASE_URL]).toEqual([shell.TELEGRAM_BOT_TOKEN, shell.BOT_API_KEY, undefined]);
    expect(Object.keys(bot.depends_on ?? {})).toEqual(['gateway']);
  });

  it('gives each service its own private key from .env (npm run service-keys), and the public keys it checks; no defaults', async () => {
    const owner = (service: string) => (service === 'gateway' ? GATEWAY_SERVICE : service);
    for (const [name, service] of appServices) {
      const raw = service.environment?.SERVICE_PRIVATE_KEY;
      // the gateway's public clients (the REST adapter, the bot) hold no service key
      if (name === 'rest-adapter' || name === 'bot') {
        expect(raw).toBeUndefined();
        continue;
      }
      expect([name, raw]).toEqual([name, expect.stringMatching(new RegExp(`^\\$\\{${keyVariable(owner(name), 'private')}:\\?.+\\}$`))]);
      expect(() => containerEnv(service, {})).toThrow(/_KEY/);
    }
    // no container holds another's private key
    for (const [name, service] of appServices) {
      const privateKeys = Object.values(service.environment ?? {}).filter((v) => typeof v === 'string' && /_PRIVATE_KEY\b/.test(v));
      expect([name, privateKeys.length]).toEqual([name, name === 'rest-adapter' || name === 'bot' ? 0 : 1]);
    }
    // what each side signs, the other side verifies: the gateway for each subgraph, each subgraph for the gateway
    const gateway = containerEnv(services.gateway);
    const body = '{"query":"{ plans { code } }"}';
    for (const def of SUBGRAPHS) {
      const subgraph = containerEnv(services[def.name]);
      const down = await signRequestToken({
        issuer: GATEWAY_SERVICE,
        audience: def.name,
        privateKey: parseServicePrivateKey(gateway.SERVICE_PRIVATE_KEY),
        body,
      });
      const downKey = parseServicePublicKey(subgraph.GATEWAY_PUBLIC_KEY);
      expect(await verifyRequestToken(down, { audience: def.name, publicKeyOf: (i) => (i === GATEWAY_SERVICE ? downKey : undefined), body })).toBeDefined();
      const up = await signRequestToken({
        issuer: def.name,
        audience: GATEWAY_SERVICE,
        privateKey: parseServicePrivateKey(subgraph.SERVICE_PRIVATE_KEY),
        body,
      });
      const upKey = parseServicePublicKey(gateway[`SERVICE_PUBLIC_KEY_${def.name.toUpperCase()}`]);
      expect(await verifyRequestToken(up, { audience: GATEWAY_SERVICE, publicKeyOf: (i) => (i === def.name ? upKey : undefined), body })).toBeDefined();
    }
  });

  it('separates the networks: the REST adapter and the bot reach only the gateway, PostgreSQL only the subgraphs and the gateway', () => {
    const networksOf = (name: string) => {
      const n = services[name].networks ?? [];
      return (Array.isArray(n) ? n : Object.keys(n)).sort();
    };
    // every subgraph: the database and the gateway's internal endpoint; outbound only where it must (mail, an object store)
    for (const def of SUBGRAPHS)
      expect([def.name, networksOf(def.name).filter((n) => n !== 'mail' && n !== 'storage')]).toEqual([def.name, ['database', 'services']]);
    // the object store (OBJECT_STORE=s3): registry artifacts, KYC documents, dispute attachments; the adapter streams uploads on its own network
    expect(Object.keys(services).filter((name) => networksOf(name).includes('storage'))).toEqual(['compliance', 'commerce', 'licensing']);
    expect(Object.keys(services).filter((name) => networksOf(name).includes('adapter-storage'))).toEqual(['rest-adapter']);
    expect(networksOf('postgres')).toEqual(['database']);
    expect(networksOf('gateway')).toEqual(['bot', 'database', 'edge', 'services']);
    expect(networksOf('rest-adapter')).toEqual(['adapter-storage', 'edge']);
    expect(networksOf('bot')).toEqual(['bot']);
    // only the access service sends mail out
    expect(Object.keys(services).filter((name) => networksOf(name).includes('mail'))).toEqual(['access']);
    for (const name of ['services', 'database']) expect([name, compose.networks[name]?.internal]).toEqual([name, true]);
    // who shares a network with whom
    const share = (a: string, b: string) => networksOf(a).some((n) => networksOf(b).includes(n));
    for (const name of Object.keys(services)) {
      if (name !== 'postgres')
        expect([name, 'postgres', share(name, 'postgres')]).toEqual([name, 'postgres', name === 'gateway' || SUBGRAPHS.some((s) => s.name === name)]);
      if (name !== 'rest-adapter') expect([name, 'rest-adapter', share(name, 'rest-adapter')]).toEqual([name, 'rest-adapter', name === 'gateway']);
      if (name !== 'bot') expect([name, 'bot', share(name, 'bot')]).toEqual([name, 'bot', name === 'gateway']);
    }
  });

  it('gives the gateway a database role that may only listen, created with the data volume', () => {
    const gateway = new URL(containerEnv(services.gateway).DATABASE_URL);
    const postgres = containerEnv(services.postgres);
    // its own role, not the application's (which owns every schema)
    expect(gateway.username).toBe('matchday_gateway');
    expect(gateway.username).not.toBe(postgres.POSTGRES_USER);
    expect(decodeURIComponent(gateway.password)).toBe(postgres.GATEWAY_DB_PASSWORD);
    expect(containerEnv(services.gateway, { ...SHELL, GATEWAY_DB_PASSWORD: 's3cret' }).DATABASE_URL).toContain(':s3cret@');
    expect(containerEnv(services.postgres, { ...SHELL, GATEWAY_DB_PASSWORD: 's3cret' }).GATEWAY_DB_PASSWORD).toBe('s3cret');
    // the postgres image runs the init script when it creates the volume; the script creates that role from the SQL it mounts
    const volumes = (services.postgres.volumes ?? []).map((v) => v.split(':'));
    const mounted = (inContainer: string) => volumes.find((v) => v[1] === inContainer)?.[0];
    const script = mounted('/docker-entrypoint-initdb.d/10-gateway-listener.sh');
    expect(script).toBe('./deploy/postgres/initdb.sh');
    const text = readFileSync(join(root, script!), 'utf8');
    expect(text).toContain(`-v role=${gateway.username}`);
    const sqlPath = /-f (\S+)/.exec(text)![1];
    expect(mounted(sqlPath)).toBe('./deploy/postgres/gateway-listener.sql');
    expect(existsSync(join(root, mounted(sqlPath)!))).toBe(true);
  });

  it("listens for service principals on the subgraphs' network only, and trusts the REST adapter's X-Forwarded-For only", () => {
    const gateway = services.gateway.networks as Record<string, { aliases?: string[] } | null>;
    const config = configOf(services.gateway);
    expect(gateway.services?.aliases).toContain(config.GATEWAY_INTERNAL_HOST);
    const adapter = (services['rest-adapter'].networks as Record<string, { ipv4_address?: string } | null>).edge?.ipv4_address;
    expect(config.TRUST_PROXY).toBe(adapter);
    const subnet = compose.networks.edge?.ipam?.config?.[0].subnet ?? '';
    expect(adapter!.split('.').slice(0, 3).join('.')).toBe(subnet.split('.').slice(0, 3).join('.'));
    expect(subnet).toMatch(/\/24$/);
  });

  it('points every URL at a service of the file, on the port that service listens on', () => {
    const target = (url: string) => {
      const u = new URL(url);
      return { service: u.hostname, port: Number(u.port), path: u.pathname };
    };
    // the REST adapter calls the public endpoint; the subgraphs the internal one, by its alias on their network
    const gatewayConfig = configOf(services.gateway);
    expect(target(containerEnv(services['rest-adapter']).GATEWAY_URL)).toEqual({ service: 'gateway', port: gatewayConfig.GATEWAY_PORT, path: '/graphql' });
    for (const def of SUBGRAPHS) {
      expect([def.name, target(containerEnv(services[def.name]).GATEWAY_URL)]).toEqual([
        def.name,
        { service: gatewayConfig.GATEWAY_INTERNAL_HOST, port: gatewayConfig.GATEWAY_INTERNAL_PORT, path: '/graphql' },
      ]);
    }

    const gatewayEnv = containerEnv(services.gateway);
    for (const def of SUBGRAPHS) {
      const url = gatewayEnv[`SUBGRAPH_URL_${def.name.toUpperCase()}`];
      expect([def.name, url]).toEqual([def.name, expect.any(String)]);
      expect(target(url)).toEqual({ service: def.name, port: listeningPorts(def.name)[0], path: '/graphql' });
    }
    for (const [name, service] of appServices) {
      for (const [variable, url] of Object.entries(containerEnv(service))) {
        if (!/^SUBGRAPH_URL_/.test(variable)) continue;
        const { service: host, port } = target(url);
        expect([name, variable, services[host] !== undefined]).toEqual([name, variable, true]);
        expect(listeningPorts(host)).toContain(port);
      }
      const database = containerEnv(service).DATABASE_URL;
      if (database) expect(target(database).service).toBe('postgres');
    }
  });

  it('probes every application service on /healthz, on a port it listens on, and starts it after its dependencies are healthy', () => {
    expect(services.postgres.healthcheck?.test.join(' ')).toMatch(/pg_isready/);
    for (const [name, service] of appServices) {
      const probe = service.healthcheck?.test.join(' ') ?? '';
      const match = /http:\/\/127\.0\.0\.1:(\d+)\/healthz/.exec(probe);
      expect([name, match !== null]).toEqual([name, true]);
      expect(listeningPorts(name)).toContain(Number(match![1]));
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect([name, dependency, services[dependency] !== undefined, condition]).toEqual([name, dependency, true, 'service_healthy']);
      }
    }
    expect(Object.keys(services.gateway.depends_on ?? {}).sort()).toEqual(SUBGRAPHS.map((s) => s.name).sort());
  });

  it('publishes the gateway and the REST surfaces on their documented ports, and nothing else', () => {
    const published = Object.fromEntries(Object.entries(services).map(([name, s]) => [name, (s.ports ?? []).map((p) => interpolate(p))]));
    // the gateway's public endpoint only: its internal one (service principals) is never published
    expect(published.gateway).toEqual([`${listeningPorts('gateway')[0]}:${listeningPorts('gateway')[0]}`]);
    expect(published['rest-adapter']).toEqual(listeningPorts('rest-adapter').map((p) => `${p}:${p}`));
    expect(listeningPorts('rest-adapter')).toEqual([8080, 8090, 8000]);
    expect(published.bot).toEqual([`${listeningPorts('bot')[0]}:${listeningPorts('bot')[0]}`]);
    for (const name of ['postgres', ...SUBGRAPHS.map((s) => s.name)]) expect([name, published[name]]).toEqual([name, []]);
    // another host port each, by a variable (two topologies on one machine, the e2e test under podman-compose)
    const chosen = {
      GATEWAY_PUBLISHED_PORT: '14000',
      PREDICTIONS_PUBLISHED_PORT: '18080',
      REGISTRY_PUBLISHED_PORT: '18090',
      FINANCE_PUBLISHED_PORT: '18000',
      BOT_PUBLISHED_PORT: '18443',
    };
    const moved = (name: string) => (services[name].ports ?? []).map((p) => interpolate(p, { ...SHELL, ...chosen }));
    expect([...moved('gateway'), ...moved('rest-adapter'), ...moved('bot')]).toEqual(['14000:4000', '18080:8080', '18090:8090', '18000:8000', '18443:8443']);
  });

  it('runs a prebuilt image when APP_IMAGE names one, else builds matchday-supergraph', () => {
    for (const [name, service] of appServices) {
      expect([name, interpolate(service.image ?? '')]).toEqual([name, 'matchday-supergraph']);
      expect([name, interpolate(service.image ?? '', { ...SHELL, APP_IMAGE: 'localhost/matchday-supergraph:0.1.0' })]).toEqual([
        name,
        'localhost/matchday-supergraph:0.1.0',
      ]);
    }
  });

  it('writes no `${VAR:-}` with an empty default: podman-compose 1.0.3 passes it on unresolved (an unset value is written `VAR:`)', () => {
    expect(readFileSync(join(root, 'docker-compose.yml'), 'utf8').match(/\$\{\w+:-\}/g)).toBeNull();
  });

  it('builds one image with tsc and runs it as a non-root user in production mode', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    // the base is a build argument (scripts/container-base.sh builds an equivalent where Docker Hub is not reachable)
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:\d+-bookworm-slim$/m);
    // the build, the production node_modules, the base without npm; the runtimes (every product's, the finance node's) are that base flattened
    expect(dockerfile.match(/^FROM \$\{NODE_IMAGE\} AS \w+$/gm)).toHaveLength(3);
    expect(dockerfile).toMatch(/^FROM scratch AS base$/m);
    expect(dockerfile).toMatch(/^FROM base AS runtime$/m);
    expect(dockerfile).toMatch(/^FROM base AS finance-runtime$/m);
    expect(dockerfile).toMatch(/^COPY --from=deps \/app\/node_modules /m);
    expect(dockerfile).toMatch(/npm ci/);
    expect(dockerfile).toMatch(/tsc -p tsconfig\.build\.json/);
    expect(dockerfile).toMatch(/^ENV NODE_ENV=production$/m);
    expect(dockerfile).toMatch(/^USER (?!root)\w+$/m);
    expect(readFileSync(join(root, '.dockerignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['node_modules', 'dist', '.data', '.cache']));
  });

  it("builds on a Node LTS line that is still supported, which package.json's engines admit beside the development machines' Node 20", () => {
    const majors = [...readFileSync(join(root, 'Dockerfile'), 'utf8').matchAll(/^ARG NODE_IMAGE=node:(\d+)[-.:\s]/gm)].map((m) => Number(m[1]));
    expect(majors.length).toBe(1);
    expect(new Set(majors).size).toBe(1);
    const [major] = majors;
    const endOfLife = NODE_LTS_END_OF_LIFE[major];
    expect([major, endOfLife === undefined ? 'not an LTS line' : 'LTS']).toEqual([major, 'LTS']);
    expect([major, new Date().toISOString().slice(0, 10) < endOfLife]).toEqual([major, true]);
    const engines = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect([engines, admits(engines, `${major}.99.0`)]).toEqual([engines, true]);
    expect([engines, admits(engines, '20.19.0')]).toEqual([engines, true]);
  });
});

/**
 * Node's LTS lines and the day each reaches its end of life (nodejs.org release schedule). An image
 * on a line past it fails this test: time to move the Dockerfile to a newer line.
 */
const NODE_LTS_END_OF_LIFE: Record<number, string> = {
  20: '2026-04-30',
  22: '2027-04-30',
  24: '2028-04-30',
  26: '2029-04-30',
};

/** Whether a version satisfies an `engines` range of the simple form package.json uses (`>=a.b <c || >=d.e`). */
function admits(range: string, version: string): boolean {
  const parse = (v: string) => v.split('.').map(Number).concat(0, 0).slice(0, 3);
  const compare = (a: number[], b: number[]) => {
    for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return Math.sign(a[i] - b[i]);
    return 0;
  };
  const v = parse(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .split(/\s+/)
      .every((condition) => {
        const [, op, bound] = /^(>=|<=|>|<|=)?(\d+(?:\.\d+){0,2})$/.exec(condition)!;
        const c = compare(v, parse(bound));
        return op === '>=' ? c >= 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : op === '<' ? c < 0 : c === 0;
      }),
  );
}
