import type { NodeGate } from '../../../subgraphs/finance/kernel/gate';
import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { execFile } from 'node:child_process';
import { generateLicenceKeyPair, publicKeyLine, signLicenceToken, type LicenceClaims } from '../../../lib/licence-token';
import { projectRoot } from '../../../lib/paths';
import type { TestApp as AnyTestApp } from '../platform/app';

/** An app that runs the finance node (alone or with the other products). */
type TestApp = AnyTestApp<'finance'> | AnyTestApp;
import { graphqlAt, http, type Reply } from '../platform/http';

/** A licence registry's key pair for tests (the vendor's private key never exists outside tests). */
type LicenceKeys = { privateKey: KeyObject; publicKeyPem: string; publicKeyLine: string };
let testVendor: LicenceKeys | undefined;

/**
 * The test vendor's licence key pair (one per test file: a node trusts only the vendor key its first
 * licence was signed with, subgraphs/finance/node/domain/licence.ts), or with `fresh` a new pair: a
 * key of someone else's, e.g. an operator's own.
 */
export function licenceKeys(opts: { fresh?: boolean } = {}): LicenceKeys {
  if (testVendor && !opts.fresh) return testVendor;
  const { privateKeyPem, publicKeyPem } = generateLicenceKeyPair();
  const keys = { privateKey: createPrivateKey(privateKeyPem), publicKeyPem, publicKeyLine: publicKeyLine(publicKeyPem) };
  if (!opts.fresh) testVendor = keys;
  return keys;
}

export const CLAIMS: LicenceClaims = {
  licenceId: 'lic_test_0001',
  organisationId: 'org_test',
  organisationName: 'Test Organisation Ltd',
  product: 'finance-node',
  plan: 'enterprise',
  maxNodes: 3,
  maintenanceUntil: '2030-12-31',
  entitlements: ['banking', 'investing', 'shop'],
  status: 'Active',
};

export async function licenceToken(keys: ReturnType<typeof licenceKeys>, opts: { ttlSeconds?: number; now?: Date; claims?: Partial<LicenceClaims> } = {}) {
  const { token } = await signLicenceToken(
    { ...CLAIMS, ...opts.claims },
    { privateKey: keys.privateKey, keyId: 'test-key', issuer: 'test-registry', ttlSeconds: opts.ttlSeconds ?? 30 * 86400, now: opts.now },
  );
  return token;
}

/**
 * Installs a fresh valid licence in-process (as bin/start.ts does for the demo). A production node learns
 * no vendor key from a licence: it carries the test vendor's, as the release images carry the registry's.
 */
export async function installValidLicence(t: TestApp) {
  const keys = licenceKeys();
  if (t.config.NODE_ENV === 'production') t.app.services.node.node.shipVendorKey(keys.publicKeyLine);
  await t.app.services.node.installLicence(await licenceToken(keys), keys.publicKeyLine);
  return keys;
}

export const PASSWORD = 'correct horse battery staple';

export async function createUser(t: TestApp, username = `user_${randomUUID().slice(0, 8)}`, opts: { superuser?: boolean } = {}) {
  const row = await t.app.services.identity.identity.createUser({ username, password: PASSWORD, superuser: opts.superuser });
  return { id: row.id, username: row.username };
}

/**
 * POST /api/login/ on the finance node at `finance` (a test app's URL, a child process's, a container's
 * published port) and its answer as it came: a refusal is a status to look at, not an error. `signal`
 * bounds a request the node may not answer (a frozen database).
 */
export function loginAt(finance: string, username: string, password = PASSWORD, opts: { signal?: AbortSignal } = {}): Promise<Reply> {
  return http(`${finance}/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
    signal: opts.signal,
  });
}

/** Signs in through POST /api/login/ and returns the access token. */
export async function login(t: TestApp, username: string, password = PASSWORD): Promise<string> {
  const res = await loginAt(t.urls.finance, username, password);
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access as string;
}

export interface AdminSession {
  cookie: string;
  csrf: string;
}

/**
 * A finance node the console helpers reach: a test app, or any node by its URL (a child process's, a
 * container's published port: `{ urls: { finance } }`).
 */
export interface FinanceOf {
  urls: { finance: string };
}

/** What a console request may carry: `signal` bounds a request the node may not answer. */
export interface ConsoleCall {
  signal?: AbortSignal;
}

/** Signs in to the admin console as a browser does: GET the form (CSRF cookie and token), POST it. */
export async function adminSignIn(t: FinanceOf, username: string, password = PASSWORD, otp?: string): Promise<AdminSession> {
  const form = await http(`${t.urls.finance}/admin/login/`);
  const csrf = /csrftoken=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1];
  const res = await http(`${t.urls.finance}/admin/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${csrf}` },
    body: new URLSearchParams({ username, password, ...(otp ? { otp } : {}), next: '/admin/', csrfmiddlewaretoken: csrf }).toString(),
  });
  if (res.status !== 302) throw new Error(`admin sign-in failed: ${res.status} ${res.text}`);
  const session = /sessionid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1];
  return { cookie: `csrftoken=${csrf}; sessionid=${session}`, csrf };
}

/** GETs an admin console page with the session (null: as a visitor with none). */
export function adminGet(t: FinanceOf, s: AdminSession | null, path: string, opts: ConsoleCall = {}) {
  return http(`${t.urls.finance}${path}`, { headers: s ? { cookie: s.cookie } : {}, signal: opts.signal });
}

/** POSTs an admin console form with the session and its CSRF token. */
export function adminPost(t: FinanceOf, s: AdminSession, path: string, fields: Record<string, string>, opts: ConsoleCall = {}) {
  return http(`${t.urls.finance}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: s.cookie },
    body: new URLSearchParams({ ...fields, csrfmiddlewaretoken: s.csrf }).toString(),
    signal: opts.signal,
  });
}

/** Runs `npm run cli -- …` as the compiled CLI (dist/), with an environment of its own. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/bin/cli.js', ...args],
      { cwd: projectRoot(), env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** POST to the gateway's /graphql. */
export function graphql(t: TestApp, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return graphqlAt(t.urls.gateway, query, { variables, headers });
}

/**
 * Runs a change of the node's settings or licence and waits until every finance subgraph's gate in
 * this process has seen it (NOTIFY): the node's own gate is evicted at once, the others by NOTIFY.
 */
export async function changeNode<T>(t: TestApp, change: () => Promise<T>): Promise<T> {
  // every finance subgraph's services hold the node's gate
  const gates = Object.values(t.app.services as Record<string, object>).flatMap((s) => ('gate' in s ? [s.gate as NodeGate] : []));
  const before = gates.map((g) => g.evictions);
  const result = await change();
  await Promise.all(gates.map((g, i) => g.evictedAfter(before[i])));
  return result;
}

/** The finance subgraphs that audit operator decisions through their outbox (subgraphs/finance/kernel/audit.ts). */
const AUDITING = ['identity', 'ledger', 'commerce', 'compliance', 'banking'] as const;

/**
 * Waits until every finance subgraph's audit outbox is delivered to the node's audit log: an entry
 * commits with its change, and the relay forwards it a moment later. Read /admin/audit/ after this.
 */
export async function auditDelivered(t: TestApp, timeoutMs = 20_000): Promise<void> {
  const services = t.app.services as unknown as Record<string, { audit: { pendingCount(): Promise<number> } }>;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await Promise.all(AUDITING.map((s) => services[s].audit.pendingCount()));
    if (pending.every((n) => n === 0)) return;
    if (Date.now() > deadline) throw new Error(`audit entries still pending after ${timeoutMs} ms: ${AUDITING.map((s, i) => `${s} ${pending[i]}`).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
