import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { SUBGRAPHS } from '../../bin/subgraphs';
import { loadConfig, type Config } from '../../lib/config';
import { projectRoot } from '../../lib/paths';
import { SURFACES } from '../../rest-adapter/surfaces';

/**
 * No Docker engine runs in CI: the compose file is checked against the build instead. Every
 * container's command must be a compiled entry point, its environment a valid configuration, and
 * every URL must name a service of the file on the port that service listens on.
 */

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string | number | null>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

const root = projectRoot();
// docker compose resolves YAML merge keys (`<<: *env`); the yaml package does when asked
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const appServices = Object.entries(services).filter(([name]) => name !== 'postgres');

/** The environment a container gets, with `${VAR:-default}` and `${VAR:?message}` resolved as compose would. */
function containerEnv(service: Service, shell: Record<string, string> = { INTERNAL_SECRET: 'x'.repeat(64) }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(service.environment ?? {})) {
    if (value === null) {
      if (shell[name] !== undefined) env[name] = shell[name];
      continue;
    }
    env[name] = String(value).replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_m, variable: string, kind?: string, rest?: string) => {
      if (shell[variable] !== undefined) return shell[variable];
      if (kind === '?') throw new Error(`${name} requires ${variable} to be set`);
      return kind === '-' ? (rest ?? '') : '';
    });
  }
  return env;
}

const configOf = (service: Service): Config => loadConfig(containerEnv(service));

/** The ports a service listens on, as its own configuration says. */
function listeningPorts(name: string): number[] {
  const config = configOf(services[name]);
  if (name === 'gateway') return [config.GATEWAY_PORT];
  if (name === 'rest-adapter') return SURFACES.map(({ port }) => port(config));
  return [config.SUBGRAPH_PORT];
}

describe('docker-compose.yml', () => {
  it('runs postgres, one service per subgraph, the gateway and the REST adapter', () => {
    expect(Object.keys(services).sort()).toEqual(['postgres', 'gateway', 'rest-adapter', ...SUBGRAPHS.map((s) => s.name)].sort());
    expect(services.postgres.image).toMatch(/^postgres:16/);
  });

  it('starts every service from the built image with `node <entry>`, an entry the build produces', () => {
    const expected: Record<string, string> = {
      gateway: 'dist/gateway/main.js',
      'rest-adapter': 'dist/rest-adapter/main.js',
      ...Object.fromEntries(SUBGRAPHS.map((s) => [s.name, `dist/subgraphs/${s.name}/index.js`])),
    };
    for (const [name, service] of appServices) {
      expect(service.build).toBe('.');
      expect(service.command).toEqual(['node', expected[name]]);
      const entry = service.command![1];
      // a stale dist/ can hold files whose source is gone: the entry must come from the sources
      expect(existsSync(join(root, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
      if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run \`npx tsc -p tsconfig.build.json\` first (npm test does)`);
    }
  });

  it('runs each subgraph from its own index.ts, which is a standalone entry point', () => {
    for (const def of SUBGRAPHS) {
      const source = readFileSync(join(root, 'subgraphs', def.name, 'index.ts'), 'utf8');
      const entry = /^if \(require\.main === module\) void runStandaloneSubgraph\(\w+\);$/m;
      if (!entry.test(source)) {
        throw new Error(`subgraphs/${def.name}/index.ts is no standalone entry: end it with \`if (require.main === module) void runStandaloneSubgraph(<its definition>);\` (import from lib/subgraph-server)`);
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
      const needs = { subgraph: def.name, mode: c.SUBGRAPH_MODE, database: !!c.DATABASE_URL, secret: !!c.INTERNAL_SECRET, gateway: !!c.GATEWAY_URL };
      expect(needs).toEqual({ subgraph: def.name, mode: 'remote', database: true, secret: true, gateway: true });
    }
    expect(configOf(services.gateway).INTERNAL_SECRET).toBeDefined();
    expect(configOf(services['rest-adapter']).GATEWAY_URL).toBeDefined();
  });

  it('requires INTERNAL_SECRET from the environment, one value for the gateway and every subgraph', () => {
    const holders = appServices.filter(([, s]) => s.environment?.INTERNAL_SECRET !== undefined).map(([name]) => name);
    expect(holders.sort()).toEqual(['gateway', ...SUBGRAPHS.map((s) => s.name)].sort());
    for (const name of holders) {
      expect(services[name].environment!.INTERNAL_SECRET).toMatch(/^\$\{INTERNAL_SECRET:\?.+\}$/);
      expect(() => containerEnv(services[name], {})).toThrow(/INTERNAL_SECRET/);
    }
  });

  it('points every URL at a service of the file, on the port that service listens on', () => {
    const target = (url: string) => {
      const u = new URL(url);
      return { service: u.hostname, port: Number(u.port), path: u.pathname };
    };
    const gatewayUrls = appServices.flatMap(([, s]) => (containerEnv(s).GATEWAY_URL ? [containerEnv(s).GATEWAY_URL] : []));
    expect(gatewayUrls.length).toBeGreaterThan(0);
    for (const url of gatewayUrls) expect(target(url)).toEqual({ service: 'gateway', port: listeningPorts('gateway')[0], path: '/graphql' });

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
    const published = Object.fromEntries(Object.entries(services).map(([name, s]) => [name, s.ports ?? []]));
    expect(published.gateway).toEqual([`${listeningPorts('gateway')[0]}:${listeningPorts('gateway')[0]}`]);
    expect(published['rest-adapter']).toEqual(listeningPorts('rest-adapter').map((p) => `${p}:${p}`));
    expect(listeningPorts('rest-adapter')).toEqual([8080, 8090, 8000]);
    for (const name of ['postgres', ...SUBGRAPHS.map((s) => s.name)]) expect([name, published[name]]).toEqual([name, []]);
  });

  it('builds one image with tsc and runs it as a non-root user in production mode', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:20-bookworm-slim/m);
    expect(dockerfile).toMatch(/npm ci/);
    expect(dockerfile).toMatch(/tsc -p tsconfig\.build\.json/);
    expect(dockerfile).toMatch(/^ENV NODE_ENV=production$/m);
    expect(dockerfile).toMatch(/^USER (?!root)\w+$/m);
    expect(readFileSync(join(root, '.dockerignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['node_modules', 'dist', '.data']));
  });
});
