import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../../lib/paths';
import { waitFor } from './wait';

export { waitFor };

const run = promisify(execFile);

/**
 * The container tests (real images under podman or docker) run where `npm run images` has built the
 * images: `.ci/run` sets CONTAINER_TESTS=1 and builds them in the background while the other tests
 * run (a first run on a machine builds the offline base images too, which takes minutes), so each
 * container test first waits for that build: IMAGES_BUILD names the folder where scripts/images.sh
 * writes `vars` (its IMAGE_…= lines) and, once done, `status` (its exit code). Then it takes a lock that
 * runs the container tests one at a time (two topologies at once on a 2-core machine miss their
 * deadlines), held until the file's last cleanup. The sequencer (test/support/platform/sequencer.js) spreads them
 * among the other files, so one jest worker runs them while the other goes on. Elsewhere they are
 * skipped, saying so.
 */
export const containerTests = process.env.CONTAINER_TESTS === '1';
if (!containerTests) console.warn('container tests skipped: run `npm run images` and set CONTAINER_TESTS=1 (as .ci/run does)');

/** How long a container test waits for the background image build and for the other container tests. */
const WAIT_MS = 60 * 60_000;

export function describeContainers(name: string, fn: () => void): void {
  if (!containerTests) return describe.skip(name, fn);
  describe(name, () => {
    let release: (() => void) | undefined;
    beforeAll(async () => {
      await imagesBuilt();
      release = await containerLock();
    }, WAIT_MS);
    fn();
    // declared after the file's own hooks, so it runs after its cleanup (jest runs afterAll in declaration order)
    afterAll(() => release?.());
  });
}

/** Waits for the background build of .ci/run (IMAGES_BUILD), then takes its IMAGE_… names. */
async function imagesBuilt(): Promise<void> {
  const dir = process.env.IMAGES_BUILD;
  if (!dir) return;
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(join(dir, 'status'))) {
    if (Date.now() > deadline) throw new Error(`the images were not built within ${WAIT_MS / 60_000} minutes (${join(dir, 'log')})`);
    await new Promise((r) => setTimeout(r, 2000));
  }
  const status = readFileSync(join(dir, 'status'), 'utf8').trim();
  const log = () => (existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').split('\n').slice(-40).join('\n') : '');
  if (status !== '0') throw new Error(`scripts/images.sh failed (exit ${status}):\n${log()}`);
  for (const line of readFileSync(join(dir, 'vars'), 'utf8').split('\n')) {
    const m = /^(IMAGE_[A-Z_]+|POSTGRES_IMAGE)=(.+)$/.exec(line.trim());
    if (m) process.env[m[1]] = m[2];
  }
}

/** One container test at a time on this machine: a directory lock naming its holder's PID (a dead holder's lock is taken over). */
async function containerLock(): Promise<() => void> {
  const lock = join(tmpdir(), 'matchday-container-tests.lock');
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (!holderAlive(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another container test held ${lock} for ${WAIT_MS / 60_000} minutes`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // just made, its PID not written yet: alive, unless it stays so
    try {
      return Date.now() - statSync(lock).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export const ENGINE = (process.env.CONTAINER_ENGINE as 'podman' | 'docker' | undefined) ?? 'podman';

const version = () => (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;

/** The images of this checkout (scripts/images.sh), and the PostgreSQL image the tests run. */
export const images = () => ({
  app: process.env.IMAGE_APP ?? `localhost/matchday-supergraph:${version()}`,
  backend: process.env.IMAGE_FINANCE_BACKEND ?? `localhost/finance-node/backend:${version()}`,
  frontend: process.env.IMAGE_FINANCE_FRONTEND ?? `localhost/finance-node/frontend:${version()}`,
  postgres: process.env.POSTGRES_IMAGE ?? 'localhost/matchday/postgres:15-bookworm',
});

/** The engine's command line; its output, or an error with what it printed. */
export async function engine(args: string[], opts: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<string> {
  try {
    const { stdout } = await run(ENGINE, args, { timeout: opts.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...opts.env } });
    return stdout.trim();
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${ENGINE} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: err });
  }
}

/** Removes what a test started, by the names it gave (containers, then networks, volumes, pods). Never throws. */
export function removeByPrefix(prefix: string): void {
  const list = (args: string[]) => {
    try {
      return execFileSync(ENGINE, args, { encoding: 'utf8' })
        .split('\n')
        .map((s) => s.trim())
        .filter((s) => s.startsWith(prefix));
    } catch {
      return [];
    }
  };
  const rm = (args: string[]) => {
    try {
      execFileSync(ENGINE, args, { stdio: 'ignore', timeout: 120_000 });
    } catch {
      // already gone
    }
  };
  const containers = list(['ps', '-a', '--format', '{{.Names}}']);
  if (containers.length) rm(['rm', '-f', '-v', '-t', '2', ...containers]);
  const pods = list(['pod', 'ps', '--format', '{{.Name}}']);
  if (pods.length) rm(['pod', 'rm', '-f', ...pods]);
  const volumes = list(['volume', 'ls', '--format', '{{.Name}}']);
  if (volumes.length) rm(['volume', 'rm', '-f', ...volumes]);
  const networks = list(['network', 'ls', '--format', '{{.Name}}']);
  if (networks.length) rm(['network', 'rm', '-f', ...networks]);
}

/** Resolves once GET url answers `status`. */
export const waitForStatus = (url: string, status: number, timeoutMs: number) =>
  waitFor(`${url} → ${status}`, timeoutMs, async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await res.body?.cancel();
    return res.status === status ? true : undefined;
  });
