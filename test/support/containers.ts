import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../lib/paths';

const run = promisify(execFile);

/**
 * The container tests (real images under podman or docker) run where `npm run images` has built the
 * images: `.ci/run` builds them once and sets CONTAINER_TESTS=1 and the IMAGE_* names for every file.
 * Elsewhere they are skipped, saying so.
 */
export const containerTests = process.env.CONTAINER_TESTS === '1';
export const describeContainers = containerTests ? describe : describe.skip;
if (!containerTests) console.warn('container tests skipped: run `npm run images` and set CONTAINER_TESTS=1 (as .ci/run does)');

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

/** Polls until `check` answers something other than undefined (every second), or fails naming `what`. */
export async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (last: ${(last as Error).message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Resolves once GET url answers `status`. */
export const waitForStatus = (url: string, status: number, timeoutMs: number) =>
  waitFor(`${url} → ${status}`, timeoutMs, async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await res.body?.cancel();
    return res.status === status ? true : undefined;
  });
