/**
 * `npm run cli -- registry …`: the vendor's administration at the machine, against the database (and
 * object store) of a running system. What the CLI changes, the running system serves at once; a
 * suspension made by the CLI (another process) evicts the running system's cached licence (NOTIFY).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../../../lib/paths';
import { demoImage } from '../../../../subgraphs/registry/licensing/domain/demo';
import { assertBuilt } from '../../../support/platform/child-app';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { TEST_MASTER_KEY } from '../../../support/platform/keys';
import { registryClient } from '../../../support/registry/registry';

const exec = promisify(execFile);
let t: TestApp;
beforeAll(async () => {
  assertBuilt('dist/bin/cli.js');
  t = await startTestApp();
});
afterAll(() => t?.stop());

const cli = (...args: string[]) =>
  exec(process.execPath, [join(projectRoot(), 'dist/bin/cli.js'), ...args], {
    env: { PATH: process.env.PATH, DATABASE_URL: t.databaseUrl, DATA_DIR: t.config.dataDir, MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent' },
  })
    .then((r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }))
    .catch((e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }));

it('creates an organisation, a plan and a licence whose key works at once; shows, extends and suspends it', async () => {
  expect((await cli('registry', 'organisations', 'create', '--name', 'Globex Corp')).stdout).toMatch(/Created organisation globex-corp/);
  expect((await cli('registry', 'users', 'add', 'globex-corp', '--email', 'it@globex.example', '--name', 'IT', '--role', 'owner')).code).toBe(0);
  expect(
    (
      await cli(
        'registry',
        'plans',
        'create',
        '--product',
        'finance-node',
        '--code',
        'globex',
        '--name',
        'Globex',
        '--max-nodes',
        '4',
        '--entitlement',
        'enterprise-whitelabel',
      )
    ).code,
  ).toBe(0);
  const created = await cli(
    'registry',
    'licences',
    'create',
    '--organisation',
    'globex-corp',
    '--plan',
    'finance-node/globex',
    '--maintenance-until',
    '2030-01-31',
  );
  expect(created.code).toBe(0);
  const key = created.stdout.trim().split('\n').pop()!;
  expect(key).toMatch(/^LIC-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);

  const client = registryClient(t, key);
  const licence = await client.get('/api/v1/license');
  expect(licence.body.data).toMatchObject({ plan: 'globex', maxNodes: 4, maintenanceUntil: '2030-01-31', organisation: { name: 'Globex Corp' } });

  const list = await cli('registry', 'licences', 'list', '--organisation', 'globex-corp');
  expect(list.stdout).toContain(`${key.slice(0, 8)}-****-****  Active`);
  expect(list.stdout).not.toContain(key);
  expect((await cli('registry', 'licences', 'show', key.slice(0, 8), '--reveal')).stdout).toContain(`key: ${key}`);
  expect((await cli('registry', 'organisations', 'list')).stdout).toMatch(/globex-corp\s+Globex Corp\n\s+owner\s+IT <it@globex.example>/);

  expect((await cli('registry', 'licences', 'extend', key.slice(0, 8), '--until', '2031-01-31')).stdout).toContain('maintenance until 2031-01-31');

  // the running system has the key cached: the CLI's suspension reaches it through NOTIFY
  const evicted = new Promise<void>((resolve) => {
    const listener = (id: string) => {
      if (id !== licence.body.data.id) return;
      t.app.services.licensing.licences.evictions.off('evicted', listener);
      resolve();
    };
    t.app.services.licensing.licences.evictions.on('evicted', listener);
  });
  expect((await cli('registry', 'licences', 'suspend', key, '--reason', 'unpaid')).stdout).toContain('is now Suspended');
  await evicted;
  expect((await client.get('/api/v1/license')).body.error.code).toBe('LICENSE_SUSPENDED');
  const audit = await cli('registry', 'audit', '--licence', licence.body.data.id);
  expect(audit.stdout).toMatch(/licence\.suspended\s+cli:\S+/);
});

it('creates a release, streams its artifacts into the object store, publishes it; licences see it at once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-cli-'));
  expect(
    (await cli('registry', 'releases', 'create', '--product', 'finance-node', '--version', '1.2.0', '--channel', 'stable', '--changelog', 'Final 1.2.0.')).code,
  ).toBe(0);
  const early = await cli('registry', 'releases', 'publish', 'finance-node@1.2.0');
  expect(early.code).toBe(1);
  expect(early.stderr).toMatch(/lacks uploaded artifacts for: backend, frontend/);
  for (const component of ['backend', 'frontend'] as const) {
    const file = join(dir, `finance-node-${component}-1.2.0.docker.tar.gz`);
    writeFileSync(file, demoImage('1.2.0', component, new Date('2026-03-01T00:00:00Z')).archive);
    const uploaded = await cli('registry', 'artifacts', 'upload', 'finance-node@1.2.0', file, '--component', component);
    expect(uploaded.stdout).toMatch(
      new RegExp(
        `Uploaded finance-node-${component}-1\\.2\\.0\\.docker\\.tar\\.gz as ${component} .*sha256 [0-9a-f]{64}, image finance-node/${component}:1\\.2\\.0 sha256:`,
      ),
    );
  }
  expect((await cli('registry', 'releases', 'publish', 'finance-node@1.2.0')).stdout).toContain('Published 1.2.0 on stable.');
  const client = registryClient(t, (await t.app.services.licensing.demoLicence()).licenceKey);
  const check = await client.get('/api/v1/releases/check-update?product=finance-node&channel=rc&current_version=1.2.0-rc.1');
  expect(check.body.data).toMatchObject({ updateAvailable: true, latestVersion: '1.2.0', channel: 'stable' });
  const artifact = (await client.get('/api/v1/releases')).body.data[0].artifacts[0];
  const { token } = (await client.post(`/api/v1/artifacts/${artifact.id}/authorize`)).body.data;
  const redirect = await fetch(`${t.urls.registry}/api/v1/artifacts/${artifact.id}/download?token=${token}`, { redirect: 'manual' });
  const bytes = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
  expect(bytes.length).toBe(artifact.size);
  const listed = await cli('registry', 'releases', 'list', '--product', 'finance-node', '--channel', 'stable');
  expect(listed.stdout).toMatch(/finance-node@1\.2\.0\s+stable\s+published/);
  expect((await cli('registry', 'releases', 'yank', 'finance-node@1.2.0')).stdout).toContain('Yanked 1.2.0.');
});

it('refuses bad input with a clear message and a non-zero exit', async () => {
  const cases: [string[], RegExp, number][] = [
    [['registry', 'licences', 'create', '--plan', 'finance-node/standard'], /--organisation is required/, 2],
    [['registry', 'licences', 'suspend', 'LIC-2222'], /No licence matches/, 1],
    [['registry', 'releases', 'create', '--product', 'finance-node', '--version', 'one', '--channel', 'stable'], /SemVer/, 1],
    [
      ['registry', 'plans', 'create', '--product', 'finance-node', '--code', 'x', '--name', 'X', '--max-nodes', 'many'],
      /--max-nodes must be a whole number/,
      2,
    ],
  ];
  for (const [args, message, code] of cases) {
    const res = await cli(...args);
    expect([args.join(' '), res.code]).toEqual([args.join(' '), code]);
    expect(res.stderr).toMatch(message);
  }
  expect((await cli('--help')).stdout).toContain('registry licences create');
});
