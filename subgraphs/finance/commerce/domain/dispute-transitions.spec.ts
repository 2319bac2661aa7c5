import { DomainError } from '../../../../lib/errors';
import { DISPUTE_STATES, type DisputeState } from './catalogue';
import type { Actor } from './common';
import {
  DISPUTE_ACTIONS,
  DISPUTE_ACTION_RULES,
  DISPUTE_TRANSITIONS,
  FINAL_DISPUTE_STATES,
  INITIAL_DISPUTE_STATE,
  disputeMove,
  type DisputeAction,
} from './dispute-transitions';

/**
 * A dispute's state machine, from its declared table: every state × action × kind of actor is
 * enumerated from the table, the action list and the actor roles, so a new state, action or role is
 * covered without editing this file. An allowed move reaches the declared state, a move the table
 * does not have is 409 INVALID_STATE naming the current status (what the API answers), an actor the
 * action does not admit 403; a final state accepts nothing; every state is reached from the initial
 * one, and every case can still be closed.
 */
const STATES = Object.keys(DISPUTE_TRANSITIONS) as DisputeState[];
/** One actor per role (the record's type makes a new role a compile error here until it has one). */
const ACTORS: Record<Actor['role'], Actor> = {
  user: { role: 'user', userId: '00000000-0000-4000-8000-000000000001' },
  admin: { role: 'admin', username: 'operator', userId: '00000000-0000-4000-8000-000000000002', operatorRole: 'support' },
};
const ROLES = Object.keys(ACTORS) as Actor['role'][];

const declared = (state: string, action: DisputeAction): DisputeState | undefined =>
  (DISPUTE_TRANSITIONS as Record<string, Partial<Record<DisputeAction, DisputeState>>>)[state]?.[action];

/** What `disputeMove` answers: the state reached, or the refusal's status, code and message. */
function attempt(state: string, action: DisputeAction, actor: Actor) {
  try {
    return { to: disputeMove(state, action, actor) };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { status: err.status, code: err.code, message: err.message, details: err.extensions.details };
  }
}

const refused409 = (state: string, action: DisputeAction) => ({
  status: 409,
  code: 'INVALID_STATE',
  message: `The dispute is ${state}; it cannot be ${DISPUTE_ACTION_RULES[action].verb}.`,
  details: { status: state },
});

/** The states reachable from `from` by any action of the table (any actor). */
function reachable(from: DisputeState): Set<DisputeState> {
  const seen = new Set<DisputeState>([from]);
  const queue = [from];
  for (let s = queue.shift(); s; s = queue.shift())
    for (const to of Object.values(DISPUTE_TRANSITIONS[s]))
      if (to && !seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
  return seen;
}

it('declares exactly the states the database stores, and a rule for exactly the declared actions', () => {
  expect([...STATES].sort()).toEqual([...DISPUTE_STATES].sort());
  expect(Object.keys(DISPUTE_ACTION_RULES).sort()).toEqual([...DISPUTE_ACTIONS].sort());
  expect(STATES).toContain(INITIAL_DISPUTE_STATE);
  for (const s of STATES)
    for (const [action, to] of Object.entries(DISPUTE_TRANSITIONS[s])) {
      expect(DISPUTE_ACTIONS).toContain(action);
      expect(STATES).toContain(to);
    }
  for (const action of DISPUTE_ACTIONS) expect(DISPUTE_ACTION_RULES[action].by.length).toBeGreaterThan(0);
});

describe.each(STATES)('in state %s', (state) => {
  it.each(DISPUTE_ACTIONS.flatMap((action) => ROLES.map((role) => [action, role] as const)))('%s by the role %s', (action, role) => {
    const to = declared(state, action);
    const got = attempt(state, action, ACTORS[role]);
    if (!to) expect(got).toEqual(refused409(state, action));
    else if (!DISPUTE_ACTION_RULES[action].by.includes(role)) expect([got.status, got.code]).toEqual([403, 'FORBIDDEN']);
    else expect(got).toEqual({ to });
  });
});

it('lets every action be taken in some state (an action no state allows is dead)', () => {
  expect(DISPUTE_ACTIONS.filter((action) => !STATES.some((s) => declared(s, action)))).toEqual([]);
});

it('has final states, and a final state accepts no action from anyone', () => {
  expect(FINAL_DISPUTE_STATES.length).toBeGreaterThan(0);
  expect(FINAL_DISPUTE_STATES).not.toContain(INITIAL_DISPUTE_STATE);
  for (const state of FINAL_DISPUTE_STATES)
    for (const action of DISPUTE_ACTIONS) for (const role of ROLES) expect(attempt(state, action, ACTORS[role])).toEqual(refused409(state, action));
});

it('reaches every state from the initial one, and a final state from every state (no case is stuck open)', () => {
  const initial = reachable(INITIAL_DISPUTE_STATE);
  expect(STATES.filter((s) => !initial.has(s))).toEqual([]);
  expect(STATES.filter((s) => ![...reachable(s)].some((r) => FINAL_DISPUTE_STATES.includes(r)))).toEqual([]);
});

it('closes the case where a resolution refunds it: money given back is never moved again by another action', () => {
  const refunded = STATES.flatMap((s) => declared(s, 'resolve') ?? []);
  expect(refunded.length).toBeGreaterThan(0);
  expect(refunded.filter((s) => !FINAL_DISPUTE_STATES.includes(s))).toEqual([]);
});

it('keeps the state on a message and on nothing else (the service writes a history row for every other action)', () => {
  const pairs = STATES.flatMap((s) => Object.entries(DISPUTE_TRANSITIONS[s]).map(([action, to]) => ({ from: s, action, to })));
  expect(pairs.filter(({ from, action, to }) => (to === from) !== (action === 'message'))).toEqual([]);
});

it.each(['closed', '', 'toString', '__proto__', 'constructor'])(
  'refuses every action on a status it does not declare (%j) with 409, never a fault',
  (state) => {
    for (const action of DISPUTE_ACTIONS) expect(attempt(state, action, ACTORS.admin)).toEqual(refused409(state, action));
  },
);
