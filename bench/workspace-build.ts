/**
 * `npm run bench:workspace-build`: a custom frontend build, from the trigger (POST /workspace/builds/
 * as a signed-in user) to the first compose manifest that names the custom frontend (GET
 * /api/v1/releases/<id>/manifest with the licence key, polled every 100 ms). Goal: under 60 s.
 *
 * Baseline, measured in the same run: the builders alone (web client, Android, iOS) called directly,
 * without the job queue, packaging, object store or manifest; the difference is what the workspace
 * adds. Options: --rounds <n> (3).
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startApp } from '../bin/app';
import { loadConfig } from '../subgraphs/products';
import { createLogger } from '../lib/logger';
import { loadClientBuilders } from '../subgraphs/registry/licensing/client-builders';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const ROUNDS = Number(args.rounds);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const EMAIL = 'bench@demo.example';
const PASSWORD = 'bench password 123';

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = 'matchday_bench_workspace';
  const admin = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const dataDir = mkdtempSync(join(tmpdir(), 'matchday-bench-workspace-'));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: server.replace(/\/[^/]*$/, `/${dbName}`),
    DATA_DIR: dataDir,
  });
  const app = await startApp(config, createLogger('warn', 'bench'), { databaseUrl: config.DATABASE_URL!, randomPorts: true });
  try {
    const licensing = app.services.licensing;
    await licensing.demo.ensure();
    const { licenceKey } = await licensing.demoLicence();
    const organisation = await licensing.catalogue.organisation('demo');
    await licensing.builds.grant(organisation.id, 'enterprise-whitelabel', 'bench');
    const { link } = await licensing.workspace.invite({ organisation: 'demo', email: EMAIL, name: 'Bench', role: 'owner' }, 'bench');
    await licensing.workspace.setPassword(new URL(link).searchParams.get('token')!, PASSWORD);
    const { session } = await licensing.workspace.signIn(EMAIL, PASSWORD);
    await licensing.branding.save(
      organisation.id,
      { displayName: 'Bench Pay', primaryColor: '#1a4f8b', accentColor: '#8e2c9a', logo: PNG, favicon: PNG },
      'bench',
    );

    const registry = app.urls.registry;
    const releases = (await (await fetch(`${registry}/api/v1/releases?channel=stable`, { headers: { 'x-license-key': licenceKey } })).json()) as {
      data: { id: string }[];
    };
    const manifestUrl = `${registry}/api/v1/releases/${releases.data[0].id}/manifest?format=compose`;
    const csrf = 'b'.repeat(43);
    const cookie = `workspace_session=${session}; csrftoken=${csrf}`;

    console.log(`Custom frontend build, trigger → manifest substitution; Node ${process.version}; ${ROUNDS} rounds`);
    const builders = loadClientBuilders();
    for (let round = 1; round <= ROUNDS; round++) {
      const start = performance.now();
      const trigger = await fetch(`${registry}/workspace/builds/`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: `csrfmiddlewaretoken=${csrf}`,
      });
      const buildId = /\/workspace\/builds\/([0-9a-f-]{36})\//.exec(trigger.headers.get('location') ?? '')?.[1];
      if (!buildId) throw new Error(`trigger answered ${trigger.status}: ${await trigger.text()}`);
      for (;;) {
        const manifest = await (await fetch(manifestUrl, { headers: { 'x-license-key': licenceKey } })).text();
        if (manifest.includes(`custom-frontends/${buildId}/`)) break;
        const build = await licensing.builds.find(buildId);
        if (build?.status === 'failed') throw new Error(`build failed: ${build.error}`);
        if (performance.now() - start > 300_000) throw new Error('no substitution within 300 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      const total = (performance.now() - start) / 1000;

      const work = mkdtempSync(join(tmpdir(), 'bench-builders-'));
      const branding = { displayName: 'Bench Pay', primaryColor: '#1a4f8b', accentColor: '#8e2c9a', logo: { bytes: PNG, contentType: 'image/png' } };
      const baselineStart = performance.now();
      await builders.buildFinanceClient({ outDir: join(work, 'web'), branding, basePath: '/' });
      await builders.buildAndroidPackage({
        outFile: join(work, 'android.apk'),
        branding,
        clientUrl: 'http://localhost:8000/app/',
        applicationId: 'com.demo.finance',
      });
      await builders.buildIosProject({
        outFile: join(work, 'ios-project.zip'),
        branding,
        clientUrl: 'http://localhost:8000/app/',
        bundleId: 'com.demo.finance',
      });
      const baseline = (performance.now() - baselineStart) / 1000;
      rmSync(work, { recursive: true, force: true });
      console.log(
        `  round ${round}: trigger → manifest ${total.toFixed(2)} s (goal < 60 s: ${total < 60 ? 'met' : 'NOT met'}); baseline builders alone ${baseline.toFixed(2)} s; workspace overhead ${(total - baseline).toFixed(2)} s`,
      );
    }
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
