import fc from 'fast-check';
import { KYC_LEVELS } from '../../kernel/kyc';
import { kycLevelReaches } from '../../kernel/gate';
import { DECIDING_STATES, KYC_STATES, VERIFICATION_LEVELS } from '../vocabulary';
import { OPEN_STATES, REVIEW_DECISIONS, effectiveLevel } from './states';

/**
 * A user's KYC level decides how much money they may move (the gate, the ledger's limits): it is
 * computed from their verifications alone, and only verified ones count; enhanced builds on basic.
 * Every level × state of the vocabulary is enumerated, so a new state is covered without editing this.
 */
const verification = fc.record({ level: fc.constantFrom(...VERIFICATION_LEVELS), state: fc.constantFrom(...KYC_STATES) });

it('is basic only with a verified basic verification, enhanced only with both verified, none otherwise', () => {
  fc.assert(
    fc.property(fc.array(verification, { maxLength: 8 }), (vs) => {
      const verified = (level: string) => vs.some((v) => v.level === level && v.state === 'verified');
      const expected = !verified('basic') ? 'none' : verified('enhanced') ? 'enhanced' : 'basic';
      expect(effectiveLevel(vs)).toBe(expected);
    }),
  );
});

it('never rises by a verification that is not verified, and never falls by one more verification', () => {
  fc.assert(
    fc.property(fc.array(verification, { maxLength: 8 }), verification, (vs, extra) => {
      const before = effectiveLevel(vs);
      const after = effectiveLevel([...vs, extra]);
      expect(kycLevelReaches(after, before)).toBe(true);
      if (extra.state !== 'verified') expect(after).toBe(before);
    }),
  );
});

it.each(KYC_STATES.flatMap((state) => VERIFICATION_LEVELS.map((level) => [level, state] as const)))(
  'a lone %s verification in state %s gives the level it verifies, if any',
  (level, state) => {
    const got = effectiveLevel([{ level, state }]);
    expect(got).toBe(state === 'verified' && level === 'basic' ? 'basic' : 'none');
    expect(KYC_LEVELS).toContain(got);
  },
);

it('opens for documents only in states no decision is pending on and nothing is verified', () => {
  for (const s of OPEN_STATES) {
    expect(KYC_STATES).toContain(s);
    expect([...DECIDING_STATES, 'verified', 'rejected']).not.toContain(s);
  }
  for (const d of REVIEW_DECISIONS) expect(KYC_STATES).toContain(d);
});
