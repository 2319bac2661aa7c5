import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './errors';

/**
 * Health probes, the same on every HTTP service (REST surfaces, gateway, standalone subgraphs, the bot);
 * the Kubernetes manifests (bin/kubernetes.ts) probe these paths:
 *
 * - liveness, `GET /healthz` and `GET /livez`: 200 while the process serves HTTP. It never looks at
 *   the database, so an orchestrator does not restart a healthy process for a database blip.
 * - readiness, `GET /readyz`: 200 when every dependency answers (the database, or the services
 *   behind this one), else 503 with Retry-After, so traffic goes elsewhere until it recovers.
 *
 * Bodies: `{"status": "ok"}`; `{"status": "ready" | "unavailable", "checks": {"<name>": "ok" | "unavailable"}}`.
 */
export const LIVENESS_PATHS = ['/healthz', '/livez'] as const;
export const READINESS_PATH = '/readyz';

/** One dependency: resolves when it answers, rejects (or exceeds the timeout) when it does not. */
export type ReadinessCheck = () => Promise<unknown>;

const CHECK_TIMEOUT_MS = 2_000;

export interface ProbeOptions {
  checks: Record<string, ReadinessCheck>;
  /** Paths a service's own contract defines (the finance node's /healthz, /livez, /readyz): left to it. */
  except?: readonly string[];
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | 'unavailable'>;
}

export async function readiness(checks: Record<string, ReadinessCheck>): Promise<ReadinessReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS)));
      try {
        await Promise.race([check(), timeout]);
        return [name, 'ok'] as const;
      } catch {
        return [name, 'unavailable'] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: entries.every(([, state]) => state === 'ok'), checks: Object.fromEntries(entries) };
}

/**
 * Answers the probes in front of an HTTP handler (before routing, request logs and body parsing):
 * returns true when it answered.
 */
export function probeResponder(opts: ProbeOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const except = new Set(opts.except ?? []);
  const liveness = new Set<string>(LIVENESS_PATHS.filter((p) => !except.has(p)));
  const ready = !except.has(READINESS_PATH);
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = (req.url ?? '').split('?')[0];
    if (liveness.has(path)) {
      send(res, 200, { status: 'ok' });
      return true;
    }
    if (!ready || path !== READINESS_PATH) return false;
    void readiness(opts.checks).then((report) => {
      const headers: Record<string, string> = report.ready ? {} : { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };
      send(res, report.ready ? 200 : 503, { status: report.ready ? 'ready' : 'unavailable', checks: report.checks }, headers);
    });
    return true;
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * Readiness of a PostgreSQL database: a fresh connection and `SELECT 1` (not the pool, which load may
 * exhaust, and whose held connections may still answer while the server takes no new one). `target`:
 * a URL, or a pool's connection options.
 *
 * One connection per database at a time, and its answer holds for a second: concurrent probes share
 * the attempt in flight, and later ones within the second take its outcome. So a flood of /readyz
 * (a finance node asks ten databases per probe) never opens more than one connection per database per
 * second, and cannot take the server's last connections from the services it checks.
 */
export const databaseCheck = (target: string | pg.ClientConfig): ReadinessCheck => {
  const config = typeof target === 'string' ? { connectionString: target } : target;
  const key = config.connectionString ?? `${String(config.user)}@${String(config.host)}:${String(config.port)}/${String(config.database)}`;
  return () => {
    const last = attempts.get(key);
    if (last && (last.settledAt === undefined || Date.now() - last.settledAt < DATABASE_CHECK_MEMO_MS)) return last.outcome;
    const attempt: { outcome: Promise<void>; settledAt?: number } = { outcome: connectAndSelect(config) };
    attempt.outcome.then(
      () => (attempt.settledAt = Date.now()),
      () => (attempt.settledAt = Date.now()),
    );
    attempts.set(key, attempt);
    return attempt.outcome;
  };
};

/** How long a database check's outcome answers later probes. */
export const DATABASE_CHECK_MEMO_MS = 1_000;
const attempts = new Map<string, { outcome: Promise<void>; settledAt?: number }>();

async function connectAndSelect(config: pg.ClientConfig): Promise<void> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: CHECK_TIMEOUT_MS, application_name: 'matchday:readiness' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Readiness of another HTTP service of the system: its own /readyz answers 200. */
export const serviceCheck =
  (readyzUrl: string): ReadinessCheck =>
  async () => {
    const res = await fetch(readyzUrl, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`${readyzUrl} answered ${res.status}`);
  };
