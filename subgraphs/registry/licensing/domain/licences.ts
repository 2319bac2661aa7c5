import type { AttemptThrottle } from '../../../../lib/attempts';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { inTransaction } from '../../../../lib/database';
import { badInput, conflict, invalidCredentials, notFound } from '../../../../lib/errors';
import type { PrincipalOf } from '../../../../lib/principal';
import type { SecretBox } from '../../../../lib/secret-box';
import type { CatalogueStore } from '../store/catalogue-store';
import { LICENCE_STATUSES, type LicenceFilter, type LicenceForAuth, type LicenceRow, type LicenceStatus, type LicenceStore } from '../store/licence-store';
import type { AuditLog } from './audit';
import { licenceExpired, licenceNotFound, licenceRevoked, licenceSuspended, rateLimited } from './errors';
import { canonicalLicenceKey, generateLicenceKey, hashLicenceKey, keyPrefix, maskedKey } from './keys';

export type LicencePrincipal = PrincipalOf<'licence'>;

export interface RateWindow {
  limit: number;
  remaining: number;
  resetAt: Date;
}

export interface LicenceVerification {
  principal: LicencePrincipal;
  quota: RateWindow;
}

export interface NewLicence {
  organisation: string;
  /** The plan's id, or `<product code>/<plan code>`. */
  plan: string;
  /** YYYY-MM-DD; default: a year from today. */
  maintenanceUntil?: string | null;
  expiresAt?: Date | null;
  name?: string | null;
}

/** The licence as the registry's GET /api/v1/license shows it to its holder. */
export interface LicenceSummary {
  id: string;
  key: string;
  status: LicenceStatus;
  product: string;
  plan: string;
  maxNodes: number;
  nodesInUse: number;
  maintenanceUntil: string;
  expiresAt: Date | null;
  entitlements: string[];
  organisation: { id: string; name: string };
}

/** How long a verified key's row is reused without asking the database (changes evict it at once). */
const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 10_000;
const WINDOW_MS = 60_000;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date (YYYY-MM-DD) that exists. */
export function parseDate(value: string, field: string): string {
  const text = value.trim();
  if (!DATE_RE.test(text) || new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) !== text)
    throw badInput(`${field} must be a date (YYYY-MM-DD).`, { [field]: ['a date, YYYY-MM-DD'] });
  return text;
}

/** The status that applies now: an Active licence past its validity is Expired even before the job records it. */
export const effectiveStatus = (status: LicenceStatus, expiresAt: Date | null, now: Date): LicenceStatus =>
  status === 'Active' && expiresAt !== null && expiresAt.getTime() <= now.getTime() ? 'Expired' : status;

/** Refuses a licence that may not be used now, with its status's own code. */
export function assertUsable(status: LicenceStatus, expiresAt: Date | null, now: Date): void {
  switch (effectiveStatus(status, expiresAt, now)) {
    case 'Suspended':
      throw licenceSuspended();
    case 'Revoked':
      throw licenceRevoked();
    case 'Expired':
      throw licenceExpired();
    case 'Active':
      return;
  }
}

/**
 * Licences: issue (the key shown at once and kept sealed), verify and rate-limit keys, suspend,
 * reinstate, revoke, extend maintenance. Verified keys are cached per process; every change that
 * alters what a key may do NOTIFYs all processes (see `forget`).
 */
export class LicenceService {
  private readonly verified = new Map<string, { row: LicenceForAuth; at: number }>();
  private readonly hashOf = new Map<string, string>();
  /** Test hook and diagnostics: emits 'evicted' with a licence id (or '*') when a cached row is dropped. */
  readonly evictions = new EventEmitter();

  constructor(
    private readonly store: LicenceStore,
    private readonly catalogue: CatalogueStore,
    private readonly audit: AuditLog,
    private readonly box: SecretBox,
    private readonly settings: { rateLimitPerMinute: number; keyAttempts: AttemptThrottle },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The guarded look-ups in flight, by client address and key hash. */
  private readonly lookups = new Map<string, Promise<LicenceForAuth | undefined>>();

  /** Verifies a presented key (gateway) and, when `meter` is set, counts the request against the licence's rate limit. */
  /**
   * A key this process verified recently answers from memory; any other is looked up as a guess,
   * reserved per client address before it is (lib/attempts.ts, `settings.keyAttempts`): wrong keys
   * from one address stop at the allowance (429), the right ones give their attempt back.
   */
  async authenticate(presented: string, opts: { meter: boolean; clientAddress?: string }): Promise<LicenceVerification> {
    const canonical = canonicalLicenceKey(presented);
    if (!canonical) throw invalidCredentials('Malformed licence key; expected LIC-XXXX-XXXX-XXXX.');
    const hash = hashLicenceKey(canonical);
    let row = this.cachedAuthRow(hash);
    if (!row) {
      // one guarded look-up per key and address at a time: a client's burst with its key is one guess, not
      // one per request (reserved before checked, 50 concurrent requests of a valid key would pass the allowance)
      const key = `${opts.clientAddress ?? ''}\n${hash.toString('hex')}`;
      let lookup = this.lookups.get(key);
      if (!lookup) {
        let found: LicenceForAuth | undefined;
        lookup = this.settings.keyAttempts
          .guard('licence-key', opts.clientAddress, async () => Boolean((found = await this.authRow(hash))))
          .then(() => found)
          .finally(() => this.lookups.delete(key));
        this.lookups.set(key, lookup);
      }
      row = await lookup;
    }
    if (!row) throw licenceNotFound();
    const now = this.clock();
    assertUsable(row.status, row.expiresAt, now);
    return { principal: toPrincipal(row), quota: await this.meter(row.id, now, opts.meter) };
  }

  /** The principal a licence's own key would have (the workspace acts for its organisation's licences); undefined when unknown. */
  async principalById(licenceId: string): Promise<LicencePrincipal | undefined> {
    const row = await this.store.findForAuthById(licenceId);
    return row && toPrincipal(row);
  }

  /** One request in the licence's current one-minute window (or the window's state, unmetered). */
  async meter(licenceId: string, now: Date, meter: boolean): Promise<RateWindow> {
    const limit = this.settings.rateLimitPerMinute;
    const windowStart = new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS);
    const resetAt = new Date(windowStart.getTime() + WINDOW_MS);
    if (!meter) return { limit, remaining: limit, resetAt };
    const count = await this.store.meter(licenceId, windowStart, limit);
    if (count === undefined) throw rateLimited(limit, resetAt, now);
    return { limit, remaining: limit - count, resetAt };
  }

  /** A licence changed here or in another process: its cached row goes (`*`: every row). */
  forget(licenceId: string): void {
    if (licenceId === '*') {
      this.verified.clear();
      this.hashOf.clear();
    } else {
      const hash = this.hashOf.get(licenceId);
      if (hash) this.verified.delete(hash);
      this.hashOf.delete(licenceId);
    }
    this.evictions.emit('evicted', licenceId);
  }

  private cachedAuthRow(hash: Buffer): LicenceForAuth | undefined {
    const hit = this.verified.get(hash.toString('hex'));
    return hit && Date.now() - hit.at < CACHE_TTL_MS ? hit.row : undefined;
  }

  private async authRow(hash: Buffer): Promise<LicenceForAuth | undefined> {
    const key = hash.toString('hex');
    const now = Date.now();
    const hit = this.cachedAuthRow(hash);
    if (hit) return hit;
    const row = await this.store.findForAuth(hash);
    // only existing keys are cached: unknown ones cannot fill the memory
    if (row) {
      if (this.verified.size >= CACHE_MAX) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(key, { row, at: now });
      this.hashOf.set(row.id, key);
    } else this.verified.delete(key);
    return row;
  }

  async create(input: NewLicence, actor: string): Promise<{ key: string; licence: LicenceRow }> {
    const organisation = await this.organisation(input.organisation);
    const plan = await this.plan(input.plan);
    const maintenanceUntil = input.maintenanceUntil ? parseDate(input.maintenanceUntil, 'maintenanceUntil') : oneYearFrom(this.clock());
    const name = input.name?.trim() || null;
    if (name && name.length > 200) throw badInput('name must be at most 200 characters.');
    const key = generateLicenceKey();
    const id = randomUUID();
    const licence = await inTransaction(this.store.pool, async (tx) => {
      const row = await this.store.insert(
        {
          id,
          organisationId: organisation.id,
          productId: plan.productId,
          planId: plan.id,
          name,
          keyHash: hashLicenceKey(key),
          keyPrefix: keyPrefix(key),
          keySealed: this.box.seal(key, sealContext(id)),
          maintenanceUntil,
          expiresAt: input.expiresAt ?? null,
        },
        tx,
      );
      await this.audit.record(tx, {
        action: 'licence.created',
        actor,
        organisationId: organisation.id,
        licenceId: id,
        subjectType: 'licence',
        subjectId: id,
        details: { key: maskedKey(row.keyPrefix), plan: plan.code, maintenanceUntil, expiresAt: row.expiresAt?.toISOString() ?? null },
      });
      return row;
    });
    return { key, licence };
  }

  suspend(ref: string, actor: string, reason?: string | null): Promise<LicenceRow> {
    return this.transition(ref, 'Suspended', ['Active'], 'licence.suspended', actor, reason);
  }

  reinstate(ref: string, actor: string, reason?: string | null): Promise<LicenceRow> {
    return this.transition(ref, 'Active', ['Suspended'], 'licence.reinstated', actor, reason);
  }

  revoke(ref: string, actor: string, reason?: string | null): Promise<LicenceRow> {
    return this.transition(ref, 'Revoked', ['Active', 'Suspended', 'Expired'], 'licence.revoked', actor, reason);
  }

  private async transition(
    ref: string,
    to: LicenceStatus,
    from: readonly LicenceStatus[],
    action: 'licence.suspended' | 'licence.reinstated' | 'licence.revoked',
    actor: string,
    reason?: string | null,
  ): Promise<LicenceRow> {
    const current = await this.find(ref);
    const row = await inTransaction(this.store.pool, async (tx) => {
      const changed = await this.store.setStatus(tx, current.id, to, from);
      if (!changed) {
        const now = (await this.store.byId(current.id, tx))!;
        throw conflict(`The licence is ${now.status}; it cannot become ${to}.`, { status: now.status });
      }
      await this.audit.record(tx, {
        action,
        actor,
        organisationId: changed.organisationId,
        licenceId: changed.id,
        subjectType: 'licence',
        subjectId: changed.id,
        details: { from: current.status, to, ...(reason ? { reason } : {}) },
      });
      return changed;
    });
    // this process at once; the others when the NOTIFY of the transaction arrives
    this.forget(row.id);
    return row;
  }

  async extendMaintenance(ref: string, until: string, actor: string): Promise<LicenceRow> {
    const current = await this.find(ref);
    const date = parseDate(until, 'maintenanceUntil');
    const row = await inTransaction(this.store.pool, async (tx) => {
      const changed = (await this.store.setMaintenance(tx, current.id, date))!;
      await this.audit.record(tx, {
        action: 'licence.maintenance_extended',
        actor,
        organisationId: changed.organisationId,
        licenceId: changed.id,
        subjectType: 'licence',
        subjectId: changed.id,
        details: { from: current.maintenanceUntil, to: date },
      });
      return changed;
    });
    this.forget(row.id);
    return row;
  }

  /** Licences past their validity become Expired (scheduled job); returns how many. */
  async expireDue(actor: string): Promise<number> {
    const rows = await inTransaction(this.store.pool, async (tx) => {
      const expired = await this.store.expireDue(tx, this.clock());
      await this.audit.record(
        tx,
        ...expired.map((l) => ({
          action: 'licence.expired' as const,
          actor,
          organisationId: l.organisationId,
          licenceId: l.id,
          subjectType: 'licence',
          subjectId: l.id,
          details: { expiresAt: l.expiresAt?.toISOString() ?? null },
        })),
      );
      return expired;
    });
    for (const l of rows) this.forget(l.id);
    return rows.length;
  }

  /** A licence by id, by its full key, or by the prefix a listing shows (LIC-ABCD). */
  async find(ref: string): Promise<LicenceRow> {
    const text = (ref ?? '').trim();
    const canonical = canonicalLicenceKey(text);
    let row: LicenceRow | undefined;
    if (/^[0-9a-f-]{36}$/i.test(text)) row = await this.store.byId(text.toLowerCase());
    else if (canonical) {
      const auth = await this.store.findForAuth(hashLicenceKey(canonical));
      row = auth && (await this.store.byId(auth.id));
    } else if (/^LIC-[A-Z0-9]{4}$/i.test(text)) {
      const rows = await this.store.byPrefix(text.toUpperCase());
      if (rows.length > 1) throw conflict(`Several licences start with ${text.toUpperCase()}; use the licence id.`);
      row = rows[0];
    }
    if (!row) throw notFound(`No licence matches "${text.slice(0, 40)}".`);
    return row;
  }

  list(filter: LicenceFilter): Promise<LicenceRow[]> {
    if (filter.status && !LICENCE_STATUSES.includes(filter.status)) throw badInput(`status must be one of ${LICENCE_STATUSES.join(', ')}.`);
    return this.store.list(filter);
  }

  byIds(ids: readonly string[]): Promise<LicenceRow[]> {
    return this.store.byIds(ids);
  }

  ofOrganisations(organisationIds: readonly string[]): Promise<LicenceRow[]> {
    return this.store.ofOrganisations(organisationIds);
  }

  /** The full key again (vendor administration, the customer's workspace): unsealed on demand, never logged. */
  revealKey(row: LicenceRow): string {
    return this.box.open(row.keySealed, sealContext(row.id));
  }

  nodesInUse(licenceIds: readonly string[]): Promise<Map<string, number>> {
    return this.store.nodesInUse(licenceIds, this.clock());
  }

  /** What the holder of a licence sees of it (GET /api/v1/license). */
  async summary(licenceId: string): Promise<LicenceSummary> {
    const row = await this.store.byId(licenceId);
    if (!row) throw notFound('No such licence.');
    const [organisation, plan, product, nodes] = await Promise.all([
      this.catalogue.organisation(row.organisationId),
      this.catalogue.plan(row.planId),
      this.catalogue.product(row.productId),
      this.nodesInUse([row.id]),
    ]);
    return {
      id: row.id,
      key: maskedKey(row.keyPrefix),
      status: effectiveStatus(row.status, row.expiresAt, this.clock()),
      product: product!.code,
      plan: plan!.code,
      maxNodes: plan!.maxNodes,
      nodesInUse: nodes.get(row.id) ?? 0,
      maintenanceUntil: row.maintenanceUntil,
      expiresAt: row.expiresAt,
      entitlements: plan!.entitlements,
      organisation: { id: organisation!.id, name: organisation!.name },
    };
  }

  private async organisation(ref: string) {
    const text = (ref ?? '').trim();
    const row = /^[0-9a-f-]{36}$/i.test(text) ? await this.catalogue.organisation(text) : await this.catalogue.organisationBySlug(text);
    if (!row) throw notFound(`No organisation "${text}".`);
    return row;
  }

  private async plan(ref: string) {
    const text = (ref ?? '').trim();
    if (/^[0-9a-f-]{36}$/i.test(text)) {
      const plan = await this.catalogue.plan(text);
      if (!plan) throw notFound(`No plan "${text}".`);
      return plan;
    }
    const [productCode, planCode] = text.split('/');
    const product = productCode ? await this.catalogue.productByCode(productCode) : null;
    const plan = product && planCode ? await this.catalogue.planByCode(product.id, planCode) : null;
    if (!plan) throw notFound(`No plan "${text}" (give the plan id or <product>/<plan>, e.g. finance-node/standard).`);
    return plan;
  }
}

/** Sealed keys are bound to their licence row. */
const sealContext = (licenceId: string) => `licensing.licence.key:${licenceId}`;

function oneYearFrom(now: Date): string {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toISOString().slice(0, 10);
}

function toPrincipal(row: LicenceForAuth): LicencePrincipal {
  return {
    kind: 'licence',
    licenceId: row.id,
    organisationId: row.organisationId,
    productId: row.productId,
    product: row.product,
    planId: row.planId,
    plan: row.plan,
    maxNodes: row.maxNodes,
    heartbeatIntervalSeconds: row.heartbeatIntervalSeconds,
    heartbeatDriftSeconds: row.heartbeatDriftSeconds,
    maintenanceUntil: row.maintenanceUntil,
    entitlements: row.entitlements,
  };
}
