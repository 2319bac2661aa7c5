import fc from 'fast-check';
import { DomainError } from '../../../../lib/errors';
import { assertMoneyDecider, type Actor } from './common';

/**
 * Who decides money (a refund, a cancellation with refund): a superuser operator, signed in as a node
 * user, who is no party of the transfer. Every kind of actor is generated; the decision is allowed
 * exactly then and refused with 403 otherwise.
 */
const id = fc.uuid();
const actor: fc.Arbitrary<Actor> = fc.oneof(
  fc.record({ role: fc.constant('user' as const), userId: id }),
  fc.record(
    { role: fc.constant('admin' as const), username: fc.string(), userId: id, operatorRole: fc.constantFrom('superuser' as const, 'support' as const) },
    { requiredKeys: ['role', 'username'] },
  ),
);

const decide = (a: Actor, parties: (string | undefined)[]) => {
  try {
    return assertMoneyDecider(a, parties);
  } catch (err) {
    return err as DomainError;
  }
};

it('lets a superuser who is no party decide, and refuses every other actor with 403', () => {
  fc.assert(
    fc.property(actor, fc.array(fc.option(id, { nil: undefined }), { maxLength: 3 }), fc.boolean(), (a, others, isParty) => {
      const parties = isParty && a.userId ? [...others, a.userId] : others;
      const allowed = a.role === 'admin' && a.operatorRole === 'superuser' && !!a.userId && !parties.includes(a.userId);
      const got = decide(a, parties);
      if (allowed) expect(got).toBe(a.userId);
      else expect([got instanceof DomainError, (got as DomainError).status]).toEqual([true, 403]);
    }),
  );
});

it.each([
  ['a node user', { role: 'user', userId: 'u1' }],
  ['support staff', { role: 'admin', username: 'sam', userId: 'u1', operatorRole: 'support' }],
  ['an operator of no role', { role: 'admin', username: 'sam', userId: 'u1' }],
  ['a superuser without a node user', { role: 'admin', username: 'sam', operatorRole: 'superuser' }],
] as [string, Actor][])('refuses %s', (_, a) => {
  expect(decide(a, ['u2'])).toMatchObject({ status: 403 });
});

it('refuses a superuser on a transfer of their own, on either side', () => {
  const su: Actor = { role: 'admin', username: 'root', userId: 'u1', operatorRole: 'superuser' };
  expect(decide(su, ['u1', 'u2'])).toMatchObject({ status: 403 });
  expect(decide(su, [undefined, 'u1'])).toMatchObject({ status: 403 });
  expect(decide(su, ['u2', undefined])).toBe('u1');
});
