import { forbidden } from '../../../../lib/errors';
import type { DisputeState } from './catalogue';
import { invalidState, type Actor } from './common';

/**
 * A dispute's life, declared once: which action is allowed in which state, the state it leads to,
 * and who may take it. Every path of the dispute service decides through `disputeMove`; nothing
 * else compares a dispute's status to decide a move.
 */

/** What is done to a raised dispute. `message` posts on its thread and leaves the state as it is. */
export const DISPUTE_ACTIONS = ['cancel', 'review', 'reject', 'resolve', 'message'] as const;
export type DisputeAction = (typeof DISPUTE_ACTIONS)[number];

/** A dispute is raised `open` (one live dispute per transaction: the states with a way on). */
export const INITIAL_DISPUTE_STATE: DisputeState = 'open';

/**
 * open → under_review → resolved | rejected; open → cancelled by the user; the thread stays open
 * while the case is. A state with no action is final. `resolve` may stop short of `resolved`: a
 * refund that needs the platform's dispute-loss account is proposed first and the dispute stays
 * under review until a second operator resolves it (Disputes.resolve).
 */
export const DISPUTE_TRANSITIONS: Readonly<Record<DisputeState, Readonly<Partial<Record<DisputeAction, DisputeState>>>>> = {
  open: { cancel: 'cancelled', review: 'under_review', message: 'open' },
  under_review: { reject: 'rejected', resolve: 'resolved', message: 'under_review' },
  resolved: {},
  rejected: {},
  cancelled: {},
};

/**
 * Who may take an action (the API's resolvers already admit only these; the domain refuses the
 * rest itself), and how a refusal and an operator's audit entry name it. Resolving moves money:
 * the operator must also be a superuser who is no party of the transaction (assertMoneyDecider),
 * decided once the transaction's parties are known.
 */
export const DISPUTE_ACTION_RULES: Readonly<Record<DisputeAction, { by: readonly Actor['role'][]; verb: string; audit: string }>> = {
  cancel: { by: ['user'], verb: 'cancelled', audit: 'dispute.cancelled' },
  review: { by: ['admin'], verb: 'put under review', audit: 'dispute.reviewed' },
  reject: { by: ['admin'], verb: 'rejected', audit: 'dispute.rejected' },
  resolve: { by: ['admin'], verb: 'resolved', audit: 'dispute.resolved' },
  message: { by: ['user', 'admin'], verb: 'discussed further', audit: 'dispute.message_posted' },
};

/** The states that accept no action at all: a closed case. */
export const FINAL_DISPUTE_STATES = (Object.keys(DISPUTE_TRANSITIONS) as DisputeState[]).filter((s) => Object.keys(DISPUTE_TRANSITIONS[s]).length === 0);

/**
 * The state `action` by `actor` leads a dispute in `status` to: 409 INVALID_STATE (with the current
 * status) when the table has no such move, 403 when the actor may not take it.
 */
export function disputeMove(status: string, action: DisputeAction, actor: Actor): DisputeState {
  const moves: Partial<Record<string, DisputeState>> | undefined = Object.hasOwn(DISPUTE_TRANSITIONS, status)
    ? DISPUTE_TRANSITIONS[status as DisputeState]
    : undefined;
  const to = moves && Object.hasOwn(moves, action) ? moves[action] : undefined;
  const rule = DISPUTE_ACTION_RULES[action];
  if (!to) throw invalidState('dispute', status, rule.verb);
  if (!rule.by.includes(actor.role))
    throw forbidden(`A dispute is ${rule.verb} by ${rule.by.map((r) => (r === 'user' ? 'its user' : 'an operator')).join(' or ')}.`);
  return to;
}
