import { KYC_LEVELS } from './kyc';
import { kycLevelReaches, kycRequiredError, NodeGate, NodePolicy, requiredKycLevel, type NodeState } from './gate';
import type { Principal } from '../../../lib/principal';
import '../identity/credential';

/** The finance gate: one mechanism for maintenance, licence read-only mode and module toggles, for every finance subgraph. */

// a future module's resolver declares its policy like this
class ShopResolver {
  @NodePolicy({ module: 'shop' })
  shopCheckout() {}
  // as the node's and identity's resolvers declare them (the gate also asks the capability table: real field names)
  @NodePolicy({ maintenance: 'exempt' })
  nodeSignupMode() {}
  @NodePolicy({ scopes: ['enrol-2fa'] })
  startTotpEnrolment() {}
}
void ShopResolver;

const state = (over: Partial<NodeState> = {}): NodeState => ({
  readOnly: false,
  licenceChecks: [],
  licenceExpiresAt: null,
  maintenance: false,
  maintenanceMessage: 'Back soon.',
  modules: {
    shop: true,
    investments: true,
    virtual_iban: true,
    african_accounts: true,
    mobile_money: true,
    disputes: true,
    crypto: true,
    fiat_ramps: true,
    rewards: true,
  },
  enforce2fa: false,
  kycRequired: true,
  enhancedKycRequired: false,
  brokerageProvider: 'equities_brokerage',
  fractionalShares: true,
  ...over,
});

const user: Principal = { kind: 'node-user', userId: 'u1', username: 'alice', scope: 'access', kycLevel: 'none' };
const admin: Principal = { kind: 'node-admin', userId: 'a1', username: 'root' };

describe('NodeGate', () => {
  it('refuses a module whose toggle is off (403 MODULE_DISABLED), reads and writes alike', async () => {
    const gate = new NodeGate(async () => state({ modules: { ...state().modules, shop: false } }));
    await expect(gate.check(user, 'shopCheckout', true)).rejects.toMatchObject({
      code: 'MODULE_DISABLED',
      status: 403,
      extensions: { details: { module: 'shop' } },
    });
    await expect(gate.check(user, 'shopCheckout', false)).rejects.toMatchObject({ code: 'MODULE_DISABLED' });
    await expect(gate.check(user, 'balances', false)).resolves.toBeUndefined();
  });

  it('refuses writes in read-only mode with the failing checks, lets reads and exempt writes through', async () => {
    const gate = new NodeGate(async () => state({ readOnly: true, licenceChecks: ['app.E001'] }));
    await expect(gate.check(user, 'createTransfer', true)).rejects.toMatchObject({
      code: 'LICENCE_READ_ONLY',
      status: 403,
      extensions: { details: { checks: ['app.E001'] } },
    });
    await expect(gate.check(admin, 'updateNodeBranding', true)).rejects.toMatchObject({ code: 'LICENCE_READ_ONLY' });
    await expect(gate.check(user, 'balances', false)).resolves.toBeUndefined();
    // the contract's exceptions: sign-in, and the admin console's settings and licence (READ_ONLY_EXEMPT)
    await expect(gate.check(user, 'nodeLogin', true)).resolves.toBeUndefined();
    await expect(gate.check(admin, 'installNodeLicence', true)).resolves.toBeUndefined();
  });

  it("refuses another subgraph's writes in read-only mode, but not its reads, nor anything during maintenance or with a module off", async () => {
    const service: Principal = { kind: 'service', name: 'payments' };
    const readOnly = new NodeGate(async () => state({ readOnly: true, licenceChecks: ['app.E002'] }));
    await expect(readOnly.check(service, 'createLedgerTransfers', true)).rejects.toMatchObject({ code: 'LICENCE_READ_ONLY' });
    await expect(readOnly.check(service, 'nodeStatus', false)).resolves.toBeUndefined();
    const busy = new NodeGate(async () => state({ maintenance: true, modules: { ...state().modules, shop: false } }));
    await expect(busy.check(service, 'createLedgerTransfers', true)).resolves.toBeUndefined();
    await expect(busy.check(service, 'shopCheckout', true)).resolves.toBeUndefined();
  });

  it('answers 503 MAINTENANCE with the notice and Retry-After during maintenance; the admin console and exempt fields stay up', async () => {
    const gate = new NodeGate(async () => state({ maintenance: true }));
    await expect(gate.check(user, 'balances', false)).rejects.toMatchObject({
      code: 'MAINTENANCE',
      status: 503,
      message: 'Back soon.',
      extensions: { details: { retryAfterSeconds: 300, maintenance: true } },
    });
    await expect(gate.check(admin, 'nodeUsers', false)).resolves.toBeUndefined();
    await expect(gate.check(user, 'nodeSignupMode', false)).resolves.toBeUndefined();
  });

  it('turns read-only when a valid licence token expires, without a new snapshot', async () => {
    let now = 1_000_000;
    const gate = new NodeGate(
      async () => state({ licenceExpiresAt: new Date(1_000_500) }),
      () => now,
    );
    await expect(gate.check(user, 'createTransfer', true)).resolves.toBeUndefined();
    now = 1_000_600;
    await expect(gate.check(user, 'createTransfer', true)).rejects.toMatchObject({
      code: 'LICENCE_READ_ONLY',
      extensions: { details: { checks: ['app.E004'] } },
    });
  });

  it('keeps its snapshot until evicted, and a read that started before an eviction does not put the old state back', async () => {
    let loads = 0;
    let release: (() => void) | undefined;
    const gate = new NodeGate(async () => {
      loads++;
      if (loads === 2) await new Promise<void>((r) => (release = r));
      return state({ maintenance: loads === 2 });
    });
    await gate.state();
    await gate.state();
    expect(loads).toBe(1);
    gate.evict();
    const slow = gate.state();
    await Promise.resolve();
    gate.evict();
    release!();
    expect((await slow).maintenance).toBe(true);
    expect((await gate.state()).maintenance).toBe(false);
    expect(loads).toBe(3);
  });

  it('admits each caller the capability table admits, and refuses the others (support staff below superusers, users, other products, undeclared fields)', async () => {
    const gate = new NodeGate(async () => state());
    const support: Principal = { kind: 'node-admin', userId: 's1', username: 'helpdesk', role: 'support' };
    const foreign = { kind: 'api-key', administrator: true } as unknown as Principal;
    await expect(gate.check(support, 'reviewDispute', true)).resolves.toBeUndefined();
    await expect(gate.check(support, 'resolveDispute', true)).rejects.toMatchObject({ code: 'SUPPORT_STAFF_FORBIDDEN', status: 403 });
    await expect(gate.check(support, 'approveLedgerAdjustment', true)).rejects.toMatchObject({ code: 'SUPPORT_STAFF_FORBIDDEN' });
    await expect(gate.check(admin, 'resolveDispute', true)).resolves.toBeUndefined();
    await expect(gate.check(user, 'nodeUsers', false)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(gate.check(admin, 'balances', false)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(gate.check(foreign, 'nodeUsers', false)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(gate.check(foreign, 'nodeStatus', false)).resolves.toBeUndefined();
    await expect(gate.check({ kind: 'anonymous' }, 'balances', false)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(gate.check(admin, 'aFieldNobodyDeclared', false)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('lets a 2FA enrolment token call only the enrolment fields', async () => {
    const gate = new NodeGate(async () => state());
    const enrolling: Principal = { kind: 'node-user', userId: 'u1', username: 'alice', scope: 'enrol-2fa', kycLevel: 'none' };
    await expect(gate.check(enrolling, 'balances', false)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(gate.check(enrolling, 'startTotpEnrolment', true)).resolves.toBeUndefined();
  });

  it('requires the KYC level the toggles name: none while KYC is off, basic, enhanced when enforced', () => {
    expect(requiredKycLevel(state({ kycRequired: false, enhancedKycRequired: true }))).toBe('none');
    expect(requiredKycLevel(state({ kycRequired: true, enhancedKycRequired: false }))).toBe('basic');
    expect(requiredKycLevel(state({ kycRequired: true, enhancedKycRequired: true }))).toBe('enhanced');
    const reaches = KYC_LEVELS.flatMap((level) => KYC_LEVELS.filter((required) => kycLevelReaches(level, required)).map((r) => `${level}>=${r}`));
    expect(reaches).toEqual(['none>=none', 'basic>=none', 'basic>=basic', 'enhanced>=none', 'enhanced>=basic', 'enhanced>=enhanced']);
    expect(kycRequiredError('enhanced', 'basic')).toMatchObject({
      code: 'KYC_REQUIRED',
      status: 403,
      extensions: { details: { required: 'enhanced', level: 'basic' } },
    });
  });
});
