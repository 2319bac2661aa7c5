import type { MiddlewareInterface, NextFn, ResolverData } from 'type-graphql';
import { DomainError, forbidden } from '../../../lib/errors';
import type { Principal } from '../../../lib/principal';
import type { SubgraphContext } from '../../../lib/subgraph';
import type { SupergraphClient } from '../../../lib/supergraph-client';
import { refusal } from './capabilities';
import { KYC_LEVELS, type KycLevel } from './kyc';

/**
 * The finance node's gate: ONE mechanism that every finance subgraph (node, identity, ledger and the
 * ones later issues add) uses to refuse an operation
 *
 *   - during global maintenance: 503 MAINTENANCE (the notice as the message, Retry-After),
 *   - in licence read-only mode: a mutation is 403 LICENCE_READ_ONLY (with the failing check ids),
 *   - while its module's toggle is off: 403 MODULE_DISABLED.
 *
 * It runs as a type-graphql global middleware on every root field (see `gatedSchemaOptions`), so a
 * new query or mutation is covered without doing anything; `@NodePolicy({...})` on a resolver method
 * states its exceptions and its module. The node's state is read through the supergraph (the node
 * subgraph's `nodeStatus`), kept in memory and evicted in every process by NOTIFY on
 * NODE_STATE_CHANGED (30 s TTL as a backstop should a notification be lost).
 */

/** NOTIFY channel: the settings record or the licence changed; every process drops its cached node state. */
export const NODE_STATE_CHANGED = 'finance_node_state_changed';

/** The modules a toggle of the settings record switches on and off. */
export const FINANCE_MODULES = [
  'shop',
  'investments',
  'virtual_iban',
  'african_accounts',
  'mobile_money',
  'disputes',
  'crypto',
  'fiat_ramps',
  'rewards',
] as const;
export type FinanceModule = (typeof FINANCE_MODULES)[number];

/** Seconds a client is asked to wait during maintenance (Retry-After). */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 300;

/** What the gate decides on: a snapshot of the settings record and the licence. */
export interface NodeState {
  /** The licence check failed (app.E001–E004): writes are refused. */
  readOnly: boolean;
  /** Ids of the failing licence checks, e.g. ['app.E001']. */
  licenceChecks: string[];
  /** When a valid licence's token expires: the node turns read-only then, without a new snapshot. */
  licenceExpiresAt: Date | null;
  maintenance: boolean;
  maintenanceMessage: string;
  modules: Record<FinanceModule, boolean>;
  enforce2fa: boolean;
  /** "KYC requirements": money moves by the user's verified level (see `requiredKycLevel`). */
  kycRequired: boolean;
  /** "Enforce enhanced KYC": the money-moving modules require the enhanced level. */
  enhancedKycRequired: boolean;
  /** "Active stock brokerage provider": decentralized_exchange, equities_brokerage or market_data. */
  brokerageProvider: string;
  /** "Fractional shares". */
  fractionalShares: boolean;
}

/**
 * The identity-verification level a user needs before money moves on this node (ONE rule for every
 * money-moving module): none while "KYC requirements" is off, enhanced while "Enforce enhanced KYC"
 * is also on, basic otherwise.
 */
export function requiredKycLevel(state: Pick<NodeState, 'kycRequired' | 'enhancedKycRequired'>): KycLevel {
  if (!state.kycRequired) return 'none';
  return state.enhancedKycRequired ? 'enhanced' : 'basic';
}

/** Whether `level` reaches `required`. */
export const kycLevelReaches = (level: KycLevel, required: KycLevel) => KYC_LEVELS.indexOf(level) >= KYC_LEVELS.indexOf(required);

/** 403 KYC_REQUIRED: the user's verified level is below what the node requires for this operation. */
export const kycRequiredError = (required: KycLevel, level: KycLevel) =>
  new DomainError('KYC_REQUIRED', 403, `Identity verification at the ${required} level is required for this operation (yours: ${level}).`, {
    required,
    level,
  });

export interface GatePolicy {
  /** The module whose toggle must be on. */
  module?: FinanceModule;
  /** Stays up during maintenance (node identity, public configuration, probes, the admin console's sign-in). */
  maintenance?: 'exempt';
  /** Token scopes besides a full access token that may call it (2FA enrolment). */
  scopes?: string[];
}

const POLICIES = new Map<string, GatePolicy>();

/** Declares a root field's gate policy. The method's name must be the field's name (as everywhere here). */
export function NodePolicy(policy: GatePolicy): MethodDecorator {
  return (_target, key) => {
    POLICIES.set(String(key), policy);
  };
}

/**
 * The writes a node without a valid licence still allows (the contract: read-only mode refuses every
 * write; sign-in changes no data, and the admin console may edit the settings record and install a
 * licence). One list, read by the subgraphs' gate and by the REST surface's (which answers a refused
 * write with 403 before looking at its body).
 */
export const READ_ONLY_EXEMPT: ReadonlySet<string> = new Set([
  'nodeLogin',
  // the enrolment a node that enforces 2FA asks for before sign-in is part of signing in (as in the console)
  'startTotpEnrolment',
  'confirmTotpEnrolment',
  'startAdminSession',
  'completeAdminTotpEnrolment',
  'endAdminSession',
  'updateNodeSettings',
  'installNodeLicence',
  // activating with a registry licence key (the console's licence page): how a read-only node gets its licence
  'activateNodeLicence',
  // ending one's own sessions changes no business data: a user can always sign out
  'nodeLogout',
  'nodeLogoutAll',
  'revokeNodeSession',
]);

/** Who may call what (support staff, superusers, users, other products): one table, kernel/capabilities.ts. */
export { ROLE_CAPABILITIES, supportStaffForbidden } from './capabilities';

/**
 * The subgraphs that move money (or commit a user to moving it): a user whose e-mail address is not
 * verified yet may read there but not write (403 EMAIL_UNVERIFIED). ONE rule, in the gate: their
 * mutations are collected when their schema is built (`buildFinanceSchema`).
 */
export const MONEY_SUBGRAPHS: ReadonlySet<string> = new Set(['payments', 'banking', 'cards', 'crypto', 'investing', 'commerce', 'ledger']);
const MONEY_WRITES = new Set<string>();

/** Records the mutations of a money-moving subgraph (called once its schema is built). */
export function registerMoneyWrites(subgraph: string, mutations: readonly string[]): void {
  if (MONEY_SUBGRAPHS.has(subgraph)) for (const m of mutations) MONEY_WRITES.add(m);
}

export const isMoneyWrite = (field: string) => MONEY_WRITES.has(field);

export const emailUnverifiedError = () =>
  new DomainError('EMAIL_UNVERIFIED', 403, 'Verify your e-mail address first: follow the link we sent you (POST /api/auth/email/resend/ sends it again).');

export const policyOf = (field: string): GatePolicy & { readOnly?: 'exempt' } => ({
  ...POLICIES.get(field),
  ...(READ_ONLY_EXEMPT.has(field) ? { readOnly: 'exempt' as const } : {}),
});

export const maintenanceError = (message: string) =>
  new DomainError('MAINTENANCE', 503, message, { retryAfterSeconds: MAINTENANCE_RETRY_AFTER_SECONDS, maintenance: true });

export const readOnlyError = (checks: string[]) =>
  new DomainError(
    'LICENCE_READ_ONLY',
    403,
    'This node has no valid licence and is read-only: writes are refused until a valid licence token and public key are installed.',
    { checks },
  );

export const moduleDisabledError = (module: FinanceModule) =>
  new DomainError('MODULE_DISABLED', 403, `The ${module.replace(/_/g, ' ')} module is switched off on this node.`, { module });

const STATE_TTL_MS = 30_000;

/** Reads the node's state and keeps it until evicted (NOTIFY) or 30 s old. */
export class NodeGate {
  private cached: { state: NodeState; at: number } | undefined;
  private loading: Promise<NodeState> | undefined;
  private generation = 0;
  private readonly waiters: { after: number; resolve: () => void }[] = [];

  constructor(
    private readonly load: () => Promise<NodeState>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The current state (read-only also once a valid licence's token has expired). */
  async state(): Promise<NodeState> {
    const hit = this.cached;
    const state = hit && this.clock() - hit.at < STATE_TTL_MS ? hit.state : await this.refresh();
    if (!state.readOnly && state.licenceExpiresAt && state.licenceExpiresAt.getTime() <= this.clock()) {
      return { ...state, readOnly: true, licenceChecks: ['app.E004'] };
    }
    return state;
  }

  /** The settings or the licence changed (here or in another process). */
  evict(): void {
    this.generation++;
    this.cached = undefined;
    this.loading = undefined;
    for (const w of this.waiters.splice(0)) if (this.generation > w.after) w.resolve();
  }

  /** How many evictions so far (with `evictedAfter`: a deterministic wait in tests). */
  get evictions(): number {
    return this.generation;
  }

  /** Resolves once an eviction has happened after the `evictions` count given. */
  evictedAfter(count: number): Promise<void> {
    if (this.generation > count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ after: count, resolve }));
  }

  private refresh(): Promise<NodeState> {
    if (this.loading) return this.loading;
    const generation = this.generation;
    const loading = this.load().then(
      (state) => {
        // a read that started before an eviction must not put the old state back
        if (generation === this.generation) this.cached = { state, at: this.clock() };
        if (this.loading === loading) this.loading = undefined;
        return state;
      },
      (err: unknown) => {
        if (this.loading === loading) this.loading = undefined;
        throw err;
      },
    );
    this.loading = loading;
    return loading;
  }

  /** Refuses `field` for `principal` when the node's state says so (see the class comment). */
  async check(principal: Principal, field: string, mutation: boolean): Promise<void> {
    // the gateway's credential checks and other subgraphs' reads are internal
    if (principal.kind === 'gateway' || (principal.kind === 'service' && !mutation)) return;
    if (principal.kind === 'service') {
      // another finance subgraph writing (a money module moving money on the ledger, a verification
      // setting a KYC level): the module gated its own caller; without a valid licence nothing is
      // written, whoever asks. Maintenance and toggles are the calling module's business (an
      // administrator's action during maintenance goes through).
      const state = await this.state();
      if (state.readOnly && policyOf(field).readOnly !== 'exempt') throw readOnlyError(state.licenceChecks);
      return;
    }
    const policy = policyOf(field);
    // the capability table: who may call this field at all (support staff below superusers, users, other products)
    const refused = refusal(field, principal);
    if (refused) throw refused;
    if (principal.kind === 'node-user' && principal.scope !== 'access' && !policy.scopes?.includes(principal.scope)) {
      throw forbidden('This token only allows enrolling in two-factor authentication.');
    }
    const state = await this.state();
    // the admin console stays up during maintenance
    if (state.maintenance && policy.maintenance !== 'exempt' && principal.kind !== 'node-admin') throw maintenanceError(state.maintenanceMessage);
    if (mutation && state.readOnly && policy.readOnly !== 'exempt') throw readOnlyError(state.licenceChecks);
    if (policy.module && !state.modules[policy.module]) throw moduleDisabledError(policy.module);
    if (mutation && principal.kind === 'node-user' && principal.emailVerified === false && isMoneyWrite(field)) throw emailUnverifiedError();
  }
}

/** The gate's middleware: every root field of the subgraph goes through `check`. Built by the schema's container with the subgraph's services. */
export class NodeGateMiddleware implements MiddlewareInterface<SubgraphContext> {
  constructor(private readonly services: { gate: NodeGate }) {}

  async use({ info, context }: ResolverData<SubgraphContext>, next: NextFn): Promise<unknown> {
    const parent = info.parentType.name;
    if ((parent === 'Query' || parent === 'Mutation') && !info.fieldName.startsWith('_')) {
      await this.services.gate.check(context.principal, info.fieldName, parent === 'Mutation');
    }
    return next();
  }
}

export const NODE_STATUS_QUERY = `query FinanceNodeState {
  nodeStatus {
    readOnly licenceChecks licenceExpiresAt maintenance maintenanceMessage enforce2fa kycRequired enhancedKycRequired brokerageProvider fractionalShares
    modules { module enabled }
  }
}`;

interface NodeStatusData {
  nodeStatus: Omit<NodeState, 'licenceExpiresAt' | 'modules'> & { licenceExpiresAt: string | null; modules: { module: string; enabled: boolean }[] };
}

/** How a finance subgraph other than `node` reads the node's state: through the supergraph. */
export function nodeStateFromSupergraph(supergraph: SupergraphClient): () => Promise<NodeState> {
  return async () => {
    const { nodeStatus: s } = await supergraph.request<NodeStatusData>(NODE_STATUS_QUERY);
    const modules = Object.fromEntries(FINANCE_MODULES.map((m) => [m, s.modules.find((x) => x.module === m)?.enabled ?? false])) as Record<
      FinanceModule,
      boolean
    >;
    return { ...s, licenceExpiresAt: s.licenceExpiresAt ? new Date(s.licenceExpiresAt) : null, modules };
  };
}
