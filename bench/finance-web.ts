/**
 * `npm run bench:web`: the finance web client's first load and time to interactive, in Chromium,
 * the new client (Preact) beside the old one (the API explorer, built from the last commit that had
 * it, in the same run) as the baseline.
 *
 *  1. First load, gzipped: index.html and the scripts, preloads and styles it names (budget 100 kB).
 *  2. Time to interactive of the home page (the balances shown) and of the send-money page (its form
 *     ready), each in a fresh browser context (cold cache), signed in: median and max of --runs.
 *     The old client has no send-money page: its home page only.
 *
 * The clients are served by their own small servers (as a CDN would) and call a finance node (one
 * process, PRODUCTS=finance) on another origin, allowed by CORS. Needs Chromium (CHROMIUM_PATH or
 * /usr/bin/chromium) and PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 * Options: --runs <n> (7).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import express from 'express';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import { buildFinanceClient, firstLoadGzipBytes, GENERIC_BRANDING } from '../clients/finance-web/build';
import { projectRoot } from '../lib/paths';
import { serveFinanceClient } from '../rest-adapter/finance/client';
import { runServer, stopChildren } from './harness';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const RUNS = Number(args.runs);
const PASSWORD = 'bench password for the web client';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const git = (...argv: string[]) => execFileSync('git', argv, { cwd: projectRoot(), encoding: 'utf8' }).trim();

/** The old client: the tree of the last commit before the Preact client, built with its own vite-build.mjs. */
function buildOldClient(outDir: string): string {
  const added = git('log', '--format=%H', '--diff-filter=A', '-1', '--', 'clients/finance-web/src/main.tsx');
  const ref = added ? `${added}~1` : 'HEAD';
  // inside the project (node_modules resolves upwards), in the ignored .cache/
  const tree = join(projectRoot(), '.cache', 'bench-old-finance-web');
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${ref} clients/finance-web subgraphs lib package.json | tar -x -C "${tree}"`], { cwd: projectRoot() });
  const spec = {
    root: join(tree, 'clients', 'finance-web'),
    outDir,
    basePath: '/app/',
    version: '0.0.0-old',
    titleHtml: 'Finance',
    headHtml: '<link rel="stylesheet" href="branding.css" />',
    assets: [
      { fileName: 'branding.css', text: `:root{--primary:${GENERIC_BRANDING.primaryColor};--on-primary:#ffffff;--accent:${GENERIC_BRANDING.accentColor}}\n` },
    ],
  };
  const specFile = join(tree, 'spec.json');
  writeFileSync(specFile, JSON.stringify(spec));
  execFileSync(process.execPath, [join(spec.root, 'vite-build.mjs'), specFile], { cwd: projectRoot(), stdio: 'inherit' });
  return git('rev-parse', '--short', ref);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function serve(directory: string, port: number, apiBase: string): Promise<Server> {
  const app = express();
  app.set('strict routing', true); // as the node's surface: /app redirects to /app/, which serves the page
  serveFinanceClient(app, { FRONTEND_URL: undefined }, directory, { apiBase });
  return new Promise((resolve) => {
    const server = app.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function createDatabase(): Promise<string> {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = 'matchday_bench_finance_web';
  const admin = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return server.replace(/\/[^/]*$/, `/${name}`);
}

/** Milliseconds from navigation start until `ready` is visible, in a fresh context signed in with `token`. */
async function timeToInteractive(browser: Browser, url: string, token: string, ready: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addInitScript(`sessionStorage.setItem('finance.access', ${JSON.stringify(token)})`);
  const page = await context.newPage();
  await page.goto(url);
  await page.locator(ready).first().waitFor({ timeout: 30_000 });
  const ms = await page.evaluate<number>('performance.now()');
  await context.close();
  return ms;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-finance-web-'));
  const servers: Server[] = [];
  let browser: Browser | undefined;
  try {
    const newDir = join(work, 'new');
    const oldDir = join(work, 'old');
    const built = await buildFinanceClient({ outDir: newDir });
    const oldRef = buildOldClient(oldDir);
    const sizes = { new: built.firstLoadGzipBytes, old: await firstLoadGzipBytes(oldDir) };
    console.log(`first load, gzipped (budget 100 kB): new ${kB(sizes.new)}, old explorer (${oldRef}) ${kB(sizes.old)}`);

    const [newPort, oldPort] = [await freePort(), await freePort()];
    const origins = [newPort, oldPort].map((port) => `http://127.0.0.1:${port}`).join(',');
    const env = {
      DATABASE_URL: await createDatabase(),
      PRODUCTS: 'finance',
      BENCH_PASSWORD: PASSWORD,
      CORS_ALLOWED_ORIGINS: origins,
      CSRF_TRUSTED_ORIGINS: origins,
    };
    const node = await runServer('dist/bench/servers/finance-app.js', env);
    const api = node.ready.finance;
    servers.push(await serve(newDir, newPort, api), await serve(oldDir, oldPort, api));
    const login = await fetch(`${api}/api/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: PASSWORD }),
    });
    const { access } = (await login.json()) as { access: string };

    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    const cases = [
      { name: 'new home      ', url: `http://127.0.0.1:${newPort}/app/`, ready: '#balances li[data-currency="EUR"] .available' },
      { name: 'new send money', url: `http://127.0.0.1:${newPort}/app/send/`, ready: '#recipient' },
      { name: 'old home      ', url: `http://127.0.0.1:${oldPort}/app/`, ready: '#balances tr[data-currency="EUR"]' },
    ];
    const times: number[][] = cases.map(() => []);
    // rounds alternate the cases, so that a slow moment of the machine falls on all of them
    for (let run = 0; run < RUNS; run++) for (const [i, c] of cases.entries()) times[i].push(await timeToInteractive(browser, c.url, access, c.ready));
    console.log(`time to interactive (Chromium, 390 px, cold cache, ${RUNS} runs; node and client on this machine):`);
    for (const [i, c] of cases.entries()) console.log(`  ${c.name} median ${median(times[i]).toFixed(0)} ms, max ${Math.max(...times[i]).toFixed(0)} ms`);
  } finally {
    await browser?.close();
    for (const server of servers) server.close();
    stopChildren();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  stopChildren();
  process.exit(1);
});
