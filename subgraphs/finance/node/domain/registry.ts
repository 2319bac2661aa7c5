import { createHash } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import { isDevelopment, isLoopback, type Config } from '../../../../lib/config';
import { badInput, DomainError } from '../../../../lib/errors';
import type { Logger } from '../../../../lib/logger';
import type { NodeStore } from '../store/node-store';
import type { NodeService } from './node-service';
import { readText, REPLY_MAX_BYTES } from '../../../../lib/bounded-body';

/**
 * The licence registry, as this node uses it: register as a deployment and fetch the licence token
 * and public key (`finance:activate`), then send heartbeats on the registry's interval. The registry
 * being unreachable never changes the licence state: verification is offline.
 *
 * Registry API (header `x-license-key: <VENDOR_API_KEY>`; `{"success": true, "data": …}` envelopes,
 * errors `{"success": false, "error": {"code", "message"}}`):
 *   POST /api/v1/deployments/register  {hostname, ipAddress, currentVersion} → {id, deploymentKey, heartbeatIntervalSeconds, nextHeartbeatAt, …}
 *   POST /api/v1/license/checkout                                            → {token, expiresAt, algorithm, keyId, publicKey}
 *   POST /api/v1/deployments/heartbeat {deploymentKey, metrics: {status, uptimeSeconds}} → {status, heartbeatIntervalSeconds, nextHeartbeatAt}
 */
interface Registration {
  id: string;
  deploymentKey: string;
  status: string;
  heartbeatIntervalSeconds: number;
  nextHeartbeatAt?: string;
  registeredAt?: string;
}

interface Checkout {
  token: string;
  expiresAt: string;
  algorithm: string;
  keyId: string;
  publicKey: string;
}

interface HeartbeatAnswer {
  status: string;
  heartbeatIntervalSeconds?: number;
  nextHeartbeatAt?: string;
}

const TIMEOUT_MS = 15_000;
/** A registry licence key, as the registry issues them (and the installer checks them). */
const LICENCE_KEY = /^[A-Za-z0-9]{3}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/;

export const registryUnavailable = (message: string) => new DomainError('REGISTRY_UNAVAILABLE', 502, message);

/**
 * Why this node may not use a registry URL (the licence key and the licence token travel in its
 * requests), or undefined: https always; http:// in development, on this machine (loopback), or in
 * production when VENDOR_REGISTRY_ALLOW_HTTP says the network is trusted.
 */
export function registryUrlProblem(url: string, config: Pick<Config, 'NODE_ENV' | 'VENDOR_REGISTRY_ALLOW_HTTP'>): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `The licence registry URL is not a URL: ${url}`;
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol !== 'http:') return `The licence registry URL must be https:// (${url}).`;
  if (isDevelopment(config) || isLoopback(parsed.hostname) || config.VENDOR_REGISTRY_ALLOW_HTTP) return undefined;
  return `The licence registry URL must be https:// in production (http:// only on this machine, or with VENDOR_REGISTRY_ALLOW_HTTP=true): ${url}`;
}

/** The registry's seat of a node whose machine is known by its host name only, and of this node on it (its own id). */
export const nodeSeatFingerprint = (host: string, instanceId: string) =>
  createHash('sha256').update(`hostname:${host.toLowerCase()}:node:${instanceId}`).digest('hex');

function ipAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

export class RegistryClient {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The heartbeat being sent, if any (stop waits for it). */
  private inFlight: Promise<unknown> | undefined;
  /** The calls of startHeartbeats, one after the other (activate and the NOTIFY it causes both call it). */
  private starting: Promise<void> = Promise.resolve();
  private readonly startedAt = Date.now();
  private activationTimer: NodeJS.Timeout | undefined;
  /** The first activation attempt at start, if any (stop waits for it). */
  private activating: Promise<void> | undefined;
  /** Test hook: resolves the waiters after each heartbeat attempt (ok or not). */
  private readonly beatListeners: ((ok: boolean) => void)[] = [];

  constructor(
    private readonly store: NodeStore,
    private readonly node: NodeService,
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  private async call<T>(base: string, path: string, licenceKey: string | undefined, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(new URL(path, base.endsWith('/') ? base : `${base}/`), {
        method: body === undefined && path.endsWith('public-key') ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(licenceKey ? { 'x-license-key': licenceKey } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw registryUnavailable(`The licence registry at ${base} cannot be reached: ${(err as Error).message}`);
    }
    const text = await readText(res).catch(() => {
      throw registryUnavailable(`The licence registry's answer (${res.status}) could not be read whole (at most ${REPLY_MAX_BYTES} bytes).`);
    });
    let json: { success?: boolean; data?: T; error?: { code?: string; message?: string } };
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      throw registryUnavailable(`The licence registry answered ${res.status} without JSON.`);
    }
    if (!res.ok || json.success !== true || json.data === undefined) {
      const code = json.error?.code ?? `HTTP_${res.status}`;
      const status = res.status >= 400 && res.status < 500 ? res.status : 502;
      throw new DomainError(code, status, `The licence registry refused: ${json.error?.message ?? res.statusText} (${code}).`);
    }
    return json.data;
  }

  /**
   * `finance:activate` (and the console's licence page, with a LIC- key): registers this node, fetches and
   * installs its licence, keeps the deployment key and the licence key its heartbeats carry.
   */
  async activate(opts: { url?: string; licenceKey?: string; actor?: string } = {}) {
    const url = opts.url ?? this.config.VENDOR_LICENSE_ENGINE_URL;
    const licenceKey = (opts.licenceKey ?? this.config.VENDOR_API_KEY)?.trim();
    const actor = opts.actor ?? 'finance:activate';
    if (!url)
      throw badInput('VENDOR_LICENSE_ENGINE_URL (or --url, or the registry URL field) names the licence registry.', {
        registryUrl: ["the licence registry's URL"],
      });
    if (!licenceKey)
      throw badInput('VENDOR_API_KEY (or --licence-key) holds the registry licence key (LIC-XXXX-XXXX-XXXX).', { licenceKey: ['LIC-XXXX-XXXX-XXXX'] });
    if (!LICENCE_KEY.test(licenceKey)) throw badInput('A licence key looks like LIC-XXXX-XXXX-XXXX.', { licenceKey: ['LIC-XXXX-XXXX-XXXX'] });
    const problem = registryUrlProblem(url, this.config);
    if (problem) throw new DomainError('INSECURE_REGISTRY_URL', 400, problem);
    const machineFingerprint = await this.seat();
    const registration = await this.call<Registration>(url, 'api/v1/deployments/register', licenceKey, {
      hostname: hostname(),
      ipAddress: ipAddress(),
      currentVersion: this.config.APP_VERSION,
      ...(machineFingerprint ? { machineFingerprint } : {}),
    });
    const checkout = await this.call<Checkout>(url, 'api/v1/license/checkout', licenceKey);
    const licence = await this.node.installLicence(checkout.token, checkout.publicKey, 'registry', actor);
    await this.store.saveDeployment(
      {
        registryUrl: url,
        deploymentId: registration.id,
        deploymentKey: registration.deploymentKey,
        // the heartbeats carry the key the node registered with (the demo node of `npm start` has no VENDOR_API_KEY)
        licenceKey,
        heartbeatIntervalSeconds: registration.heartbeatIntervalSeconds,
        nextHeartbeatAt: registration.nextHeartbeatAt ? new Date(registration.nextHeartbeatAt) : null,
      },
      actor,
    );
    await this.startHeartbeats();
    return { registration, licence };
  }

  /**
   * The seat this node registers as. The installer's (VENDOR_MACHINE_FINGERPRINT: the machine and the
   * installation, which a container's changing host name does not change); else, by default, this node's
   * own on its machine (its id, kept in its database: two nodes on one machine are two seats); with
   * VENDOR_SEAT=machine, none (the registry takes the host name's seat, shared by the machine's nodes).
   */
  private async seat(): Promise<string | undefined> {
    if (this.config.VENDOR_MACHINE_FINGERPRINT) return this.config.VENDOR_MACHINE_FINGERPRINT;
    if (this.config.VENDOR_SEAT === 'machine') return undefined;
    return nodeSeatFingerprint(hostname(), await this.store.instanceId());
  }

  deployment() {
    return this.store.deployment();
  }

  /**
   * At start: a node configured with VENDOR_LICENSE_ENGINE_URL and VENDOR_API_KEY but not yet
   * registered activates itself over HTTP, retrying with backoff (30 s doubling to 15 min) while the
   * registry cannot be reached or refuses; it stays read-only meanwhile. Runs in the background.
   */
  activateFromEnvironment(): void {
    const { VENDOR_LICENSE_ENGINE_URL: url, VENDOR_API_KEY: licenceKey } = this.config;
    if (!url || !licenceKey) return;
    const attempt = async (delayMs: number): Promise<void> => {
      if (this.stopped || (await this.store.deployment().catch(() => undefined))) return;
      try {
        const { licence } = await this.activate({ url, licenceKey });
        this.logger.info({ registry: url, licence: licence.status }, 'registered with the licence registry');
      } catch (err) {
        this.logger.warn({ err: (err as Error).message, retryInSeconds: delayMs / 1000 }, 'activation with the licence registry failed; retrying');
        this.activationTimer = setTimeout(() => void attempt(Math.min(delayMs * 2, 15 * 60_000)), delayMs);
        this.activationTimer.unref();
      }
    };
    this.activating = attempt(30_000);
  }

  /** The first activation attempt at start, once it has ended (ok or not); resolves at once when there is none. */
  async firstActivation(): Promise<void> {
    await this.activating;
  }

  /** One heartbeat (and a new token when the current one is past half its life). Never throws. */
  async heartbeat(): Promise<boolean> {
    if (this.stopped) return false;
    const deployment = await this.store.deployment().catch((err: unknown) => {
      this.logger.warn({ err: (err as Error).message }, 'licence registry heartbeat skipped: the node database is unreachable');
      return undefined;
    });
    if (!deployment) return false;
    const licenceKey = deployment.licenceKey ?? this.config.VENDOR_API_KEY;
    let ok = false;
    try {
      const problem = registryUrlProblem(deployment.registryUrl, this.config);
      if (problem) throw new DomainError('INSECURE_REGISTRY_URL', 400, problem);
      const answer = await this.call<HeartbeatAnswer>(deployment.registryUrl, 'api/v1/deployments/heartbeat', licenceKey, {
        deploymentKey: deployment.deploymentKey,
        // what this node's own readiness probe says, and how long this process has run
        metrics: { status: await this.ownState(), uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000) },
      });
      await this.store.recordHeartbeat(answer.status, answer.heartbeatIntervalSeconds, answer.nextHeartbeatAt ? new Date(answer.nextHeartbeatAt) : undefined);
      ok = true;
      await this.renewIfDue(deployment.registryUrl, licenceKey);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'licence registry heartbeat failed; the licence stays as it is (verified offline)');
      // a refusal names itself (e.g. license_revoked: no more updates); anything else is the registry out of reach
      const refused = err instanceof DomainError && err.status >= 400 && err.status < 500 ? err.code.toLowerCase() : 'unreachable';
      await this.store.recordHeartbeat(refused, undefined, undefined).catch(() => undefined);
    }
    for (const listener of this.beatListeners.splice(0)) listener(ok);
    return ok;
  }

  private async renewIfDue(url: string, licenceKey: string | undefined): Promise<void> {
    const { evaluation } = await this.node.licence();
    const { issuedAt, expiresAt } = evaluation;
    if (!licenceKey || !issuedAt || !expiresAt) return;
    if (Date.now() < issuedAt.getTime() + (expiresAt.getTime() - issuedAt.getTime()) / 2) return;
    const checkout = await this.call<Checkout>(url, 'api/v1/license/checkout', licenceKey);
    await this.node.installLicence(checkout.token, checkout.publicKey, 'registry', 'heartbeat');
  }

  /**
   * Sends heartbeats on the registry's interval while the process runs, once the node is registered
   * (at start, after `activate`, or when another process activated it: NOTIFY). Idempotent: calls run
   * one after the other, so two at once (activate's own and its NOTIFY's) start one loop, and a call
   * made after the registration is saved always sees it.
   */
  startHeartbeats(): Promise<void> {
    const next = this.starting.then(() => this.beginHeartbeats());
    this.starting = next.catch(() => undefined);
    return next;
  }

  private async beginHeartbeats(): Promise<void> {
    if (this.timer || this.stopped) return;
    const { VENDOR_LICENSE_ENGINE_URL: url, VENDOR_DEPLOYMENT_ID: key } = this.config;
    if (!(await this.store.deployment())) {
      if (!url || !key) return;
      // registered elsewhere (e.g. before the database was replaced): the key from the environment
      await this.store.saveDeployment(
        { registryUrl: url, deploymentId: null, deploymentKey: key, licenceKey: null, heartbeatIntervalSeconds: 60, nextHeartbeatAt: null },
        'environment',
      );
    }
    const schedule = async () => {
      if (this.stopped) return;
      const deployment = await this.store.deployment().catch(() => undefined);
      const seconds = deployment?.heartbeatIntervalSeconds ?? 60;
      this.timer = setTimeout(() => {
        this.inFlight = this.heartbeat().finally(() => void schedule());
      }, seconds * 1000);
      this.timer.unref();
    };
    // one at once (the node announces itself when it starts), then on the registry's interval
    this.timer = setTimeout(() => void (this.inFlight = this.heartbeat().finally(() => void schedule())), 0);
    this.timer.unref();
  }

  private readinessUrl: string | undefined;
  private markListening: () => void = () => undefined;
  private readonly listening = new Promise<void>((resolve) => (this.markListening = resolve));

  /** Where this process's REST surface answers its readiness probe, once it listens (bin/app.ts). */
  surfaceReady(readinessUrl: string): void {
    this.readinessUrl = readinessUrl;
    this.markListening();
  }

  /**
   * The node's state as its own readiness probe (GET /readyz) answers it: healthy (200), degraded
   * (another answer), or unknown (no surface in this process, e.g. a node subgraph that runs apart from
   * its REST adapter). A heartbeat sent while the process starts waits for its surface (30 s at most).
   */
  private async ownState(): Promise<'healthy' | 'degraded' | 'unknown'> {
    if (!this.readinessUrl) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.listening, new Promise<void>((resolve) => (timer = setTimeout(resolve, 30_000).unref()))]);
      clearTimeout(timer);
    }
    if (!this.readinessUrl) return 'unknown';
    try {
      const res = await fetch(this.readinessUrl, { signal: AbortSignal.timeout(5_000) });
      await res.body?.cancel();
      return res.ok ? 'healthy' : 'degraded';
    } catch {
      return 'unknown';
    }
  }

  /** Resolves after the next heartbeat attempt (tests). */
  nextHeartbeat(): Promise<boolean> {
    return new Promise((resolve) => this.beatListeners.push(resolve));
  }

  /** Stops the heartbeats; resolves once one in flight has ended (the database pools close after it). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.activationTimer) clearTimeout(this.activationTimer);
    await Promise.all([this.inFlight?.catch(() => undefined), this.activating]);
  }
}
