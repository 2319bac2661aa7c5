import { DomainError, forbidden, unauthenticated } from '../../../lib/errors';
import type { Principal } from '../../../lib/principal';

/**
 * WHO MAY CALL WHAT on the finance node: ONE table, with an entry for every root field (Query and
 * Mutation) of every finance subgraph. The node's gate (gate.ts) refuses a caller the table does not
 * admit, on every root field; `buildFinanceSchema` refuses to build a subgraph that has a root field
 * missing here (a new query or mutation must be declared before it can be served), and
 * test/finance/contract/authority.test.ts calls every field of the composed schema with every
 * credential kind and checks the answer against this table.
 *
 * Audiences:
 *   - `public`: anyone, signed in or not (probes, the node's public status, sign-in and sign-up,
 *     provider webhooks checked by their own signature);
 *   - `user`: a node user's access token only (their own money and account);
 *   - `operator`: the admin console, support staff and superusers: handling cases and reading;
 *   - `superuser`: the admin console's superusers only: money decisions, settings, credentials, the
 *     licence, operators;
 *   - `internal`: no outside credential: another finance subgraph (service principal) or the gateway.
 *
 * Support staff handle cases and read; they never decide money (resolving a dispute, approving or
 * rejecting an adjustment, voiding a transfer are superuser capabilities), never act on their own
 * account or on another operator's (identity refuses it where the user rows live:
 * subgraphs/finance/identity/domain/operators.ts), and never create or elevate operators.
 * No other product's credential (prediction API keys, its administrator key, licence keys, the
 * registry workspace) is admitted anywhere but `public`.
 */
export type Audience = 'public' | 'user' | 'operator' | 'superuser' | 'internal';

/** The classes of outside callers the table speaks of. */
export type CallerClass = 'anonymous' | 'user' | 'support' | 'superuser' | 'foreign';

const fields = (audience: Audience, names: string[]) => names.map((n) => [n, audience] as const);

const READINESS = ['banking', 'cards', 'commerce', 'compliance', 'crypto', 'identity', 'investing', 'ledger', 'node', 'payments'].map((s) => `${s}Readiness`);

export const FIELD_AUDIENCE: Readonly<Record<string, Audience>> = Object.fromEntries([
  ...fields('public', [
    ...READINESS,
    ...['nodeStatus', 'nodeInfo', 'nodeSettings', 'nodeBranding', 'nodeBankingRails', 'nodeSignupMode', 'assistantConfigured'],
    ...['receiveBankingWebhook', 'receiveCardIssuerEvent', 'receiveKycWebhook', 'receiveCryptoExchangeEvent'],
    ...['nodeLogin', 'startAdminSession', 'completeAdminTotpEnrolment'],
    ...['nodeSignup', 'verifyNodeEmail', 'requestNodePasswordReset', 'confirmNodePasswordReset'],
    // development only (404 in production): the mails and text messages the node "sent"
    'nodeDevOutbox',
  ]),
  ...fields('user', [
    // banking, cards
    ...['bankingVirtualAccounts', 'bankingMovements', 'bankingMovement', 'openVirtualAccount', 'sendBankTransfer', 'simulateIncomingTransfer'],
    ...['requestMobileMoneyDeposit', 'requestMobileMoneyWithdrawal', 'createRamp'],
    ...['cards', 'card', 'cardAuthorisations', 'issueCard', 'revealCard', 'setCardFrozen', 'updateCardLimits'],
    // commerce
    ...['shopProducts', 'shopProduct', 'shopCart', 'shopOrders', 'shopOrder', 'addShopCartItem', 'changeShopCartItem', 'removeShopCartItem'],
    ...['shopCheckout', 'payShopOrder', 'cancelShopOrder', 'utilityCatalogue', 'utilityRequests', 'requestAirtime', 'requestDataBundle'],
    ...['requestBillPayment', 'giftCardBrands', 'giftCardCountries', 'giftCardOrders', 'orderGiftCard'],
    ...['disputes', 'dispute', 'openDispute', 'cancelDispute', 'postDisputeMessage', 'rewardsSummary', 'claimReferral', 'redeemRewardPoints'],
    // compliance, crypto
    ...['kycStatus', 'startKycVerification', 'uploadKycDocument', 'attachKycDocument', 'submitKycVerification'],
    ...['cryptoDepositAddresses', 'cryptoDeposits', 'cryptoSwaps', 'createCryptoDepositAddress', 'createCryptoQuote', 'swapCrypto'],
    // identity
    ...['nodeUser', 'nodeSessions', 'resendNodeEmailVerification', 'changeNodePassword', 'revokeNodeSession', 'nodeLogout', 'nodeLogoutAll'],
    ...['renewNodeRecoveryCodes', 'disableNodeTotp', 'startTotpEnrolment', 'confirmTotpEnrolment', 'setMyPhone', 'verifyMyPhone'],
    // investing, ledger, node, payments
    ...['instruments', 'instrumentQuote', 'investmentOrders', 'portfolio', 'portfolioFills', 'submitInvestmentOrder', 'cancelInvestmentOrder'],
    ...['balances', 'ledgerStatement', 'ledgerReceipt', 'askAssistant', 'createTransfer', 'createFxQuote', 'createFxConversion'],
    ...['transferRecipient', 'ledgerPeriodStatement'],
  ]),
  ...fields('operator', [
    // their own console session
    ...['nodeAdminUser', 'endAdminSession'],
    // users: read, freeze / unfreeze and KYC level of customers (never of an operator, never their own)
    ...['nodeUsers', 'nodeUserDetail', 'setNodeUserActive', 'setNodeUserKycLevel'],
    // cases: disputes (review, messages, rejection; never the refund), KYC reviews, proposing adjustments
    ...['adminDisputes', 'adminDispute', 'adminPostDisputeMessage', 'reviewDispute', 'rejectDispute'],
    ...['kycVerifications', 'reviewKycVerification', 'viewKycDocument', 'ledgerAdjustments', 'proposeLedgerAdjustment'],
  ]),
  ...fields('superuser', [
    // money decisions
    ...[
      'resolveDispute',
      'approveLedgerAdjustment',
      'rejectLedgerAdjustment',
      'voidLedgerTransfer',
      'adminVoidBankingMovement',
      'adminSimulateIncomingTransfer',
    ],
    ...['fulfilShopOrder', 'adminCancelShopOrder'],
    // operators (two-person: one proposes, another approves) and who may join
    ...['createNodeUser', 'nodeOperatorChanges', 'proposeNodeOperatorChange', 'approveNodeOperatorChange', 'rejectNodeOperatorChange'],
    ...['setNodeSignupMode', 'createNodeInvite', 'nodeInvites', 'setNodeUserPhone', 'nodeSandboxSms'],
    ...['nodeUserStats', 'nodeRecentSignIns'],
    // the node: settings, branding, licence, provider credentials, its logs
    ...[
      'updateNodeSettings',
      'updateNodeBranding',
      'uploadNodeLogo',
      'installNodeLicence',
      'activateNodeLicence',
      'saveProviderCredential',
      'deleteProviderCredential',
    ],
    ...['nodeProviderCredentials', 'nodeActivity', 'nodeAuditLog', 'providerEvents'],
    // the modules' admin pages
    ...['adminVirtualAccounts', 'adminBankingMovements', 'adminBankingEvents', 'adminCards', 'adminCardAuthorisations'],
    ...['adminShopProducts', 'createShopProduct', 'updateShopProduct', 'setShopProductImage', 'adminShopOrders', 'adminUtilityRequests'],
    ...['adminGiftCardOrders', 'adminRewardEvents', 'adminReferrals', 'adminCryptoDepositAddresses', 'adminCryptoDeposits', 'adminCryptoSwaps'],
    ...['adminInstruments', 'investingRegistryWarnings', 'investingRuns', 'adminInvestmentOrders', 'investmentOrderCounts', 'investingTradeStream'],
    ...['ledgerReconciliation', 'ledgerAccounts', 'ledgerTransfers', 'ledgerOpenPending', 'ledgerTotals', 'ledgerCounts'],
  ]),
  ...fields('internal', [
    ...['authenticateNodeToken', 'authenticateAdminSession', 'nodeRecipient', 'reauthenticateNodeUser', 'providerSecret', 'recordNodeAudit'],
    ...['ensureLedgerAccount', 'createLedgerTransfers', 'ledgerAccountForService', 'ledgerTransferForService', 'ledgerReversalForService', 'fxRateForService'],
  ]),
]);

/** Which caller classes each audience admits. */
const ADMITS: Record<Audience, readonly CallerClass[]> = {
  public: ['anonymous', 'user', 'support', 'superuser', 'foreign'],
  user: ['user'],
  operator: ['support', 'superuser'],
  superuser: ['superuser'],
  internal: [],
};

export const admits = (audience: Audience, caller: CallerClass): boolean => ADMITS[audience].includes(caller);

/** An outside caller's class; undefined for the node's own callers (another subgraph, the gateway), which the table does not govern. */
export function callerClass(p: Principal): CallerClass | undefined {
  switch (p.kind) {
    case 'service':
    case 'gateway':
      return undefined;
    case 'anonymous':
      return 'anonymous';
    case 'node-user':
      return 'user';
    case 'node-admin':
      return p.role === 'support' ? 'support' : 'superuser';
    default:
      return 'foreign';
  }
}

/** The capabilities of each operator role, as the console shows them: derived from the table. */
export const ROLE_CAPABILITIES: Readonly<Record<'support' | 'superuser', ReadonlySet<string>>> = {
  support: new Set(Object.keys(FIELD_AUDIENCE).filter((f) => admits(FIELD_AUDIENCE[f], 'support'))),
  superuser: new Set(Object.keys(FIELD_AUDIENCE).filter((f) => admits(FIELD_AUDIENCE[f], 'superuser'))),
};

export const supportStaffForbidden = () =>
  new DomainError(
    'SUPPORT_STAFF_FORBIDDEN',
    403,
    'Support staff may not do this: it needs a superuser (money decisions, settings, credentials, the licence, operators).',
  );

/** The refusal for a caller the table does not admit to `field` (nothing when it does). */
export function refusal(field: string, p: Principal): DomainError | undefined {
  const caller = callerClass(p);
  if (caller === undefined) return undefined;
  const audience = FIELD_AUDIENCE[field];
  if (audience === undefined) return forbidden(`${field} is not declared in the node's capability table.`);
  if (admits(audience, caller)) return undefined;
  if (caller === 'anonymous') return unauthenticated();
  if (caller === 'support' && audience === 'superuser') return supportStaffForbidden();
  return forbidden('This credential does not give access to this operation.');
}

/** Throws when a finance subgraph serves a root field the table does not declare (checked when its schema is built). */
export function assertDeclared(subgraph: string, rootFields: readonly string[]): void {
  const missing = rootFields.filter((f) => !f.startsWith('_') && !(f in FIELD_AUDIENCE));
  if (missing.length) {
    throw new Error(`${subgraph}: root fields missing from the capability table (subgraphs/finance/kernel/capabilities.ts): ${missing.join(', ')}`);
  }
}

/**
 * The mutations an operator credential may call that decide something: each writes an entry to the
 * node's audit log in the decision's transaction (test/finance/contract/audit-completeness.test.ts).
 * Ending one's own console session is no decision.
 */
export const NOT_DECISIONS: ReadonlySet<string> = new Set(['endAdminSession']);
