import { fitModel, forecast, MODEL_KINDS, predictedOutcome, type FittedModel, type Forecast, type ModelKind } from '.';
import type { DixonColesState } from './dixon-coles';
import type { RatingState } from './rating-model';
import { dominantLeague, poissonLeague, rng } from '../../../../../test/support/predictions/synthetic-matches';

const STRENGTHS = { Top: 0.8, Good: 0.4, Mid: 0, Average: 0, Poor: -0.4, Bottom: -0.8 };
const league = poissonLeague({ strengths: STRENGTHS, seasons: 8, seed: 7 });
const AFTER = '2026-08-01';
const teams = Object.keys(STRENGTHS);

function pairs(): [string, string][] {
  return teams.flatMap((h) => teams.filter((a) => a !== h).map((a): [string, string] => [h, a]));
}

const fixture = (home: string, away: string, competition = 'xx.1') => ({ competition, date: '2026-08-20', home, away });

describe.each(MODEL_KINDS)('%s', (kind: ModelKind) => {
  let model: FittedModel;
  beforeAll(() => {
    model = fitModel({ kind }, league, { asOf: AFTER });
  });

  it('gives probabilities that sum to 1 and consistent goal expectations', () => {
    for (const [h, a] of pairs()) {
      const f = forecast(model, fixture(h, a));
      expect(f.pHome + f.pDraw + f.pAway).toBeCloseTo(1, 12);
      for (const p of [f.pHome, f.pDraw, f.pAway]) expect(p).toBeGreaterThan(0);
      expect(f.expHomeGoals).toBeGreaterThanOrEqual(0);
      expect(f.expAwayGoals).toBeGreaterThanOrEqual(0);
      expect(f.expGoalDiff).toBeCloseTo(f.expHomeGoals - f.expAwayGoals, 12);
    }
  });

  it('favours the stronger side, at home and away', () => {
    for (const [h, a] of pairs()) {
      const diff = STRENGTHS[h as keyof typeof STRENGTHS] - STRENGTHS[a as keyof typeof STRENGTHS];
      if (Math.abs(diff) < 0.8) continue; // closer pairs may be reversed by home advantage or noise
      const f = forecast(model, fixture(h, a));
      expect(predictedOutcome(f)).toBe(diff > 0 ? 'H' : 'A');
    }
  });

  it('favours a team that always wins, and the goal difference agrees with the favourite', () => {
    const m = fitModel({ kind }, dominantLeague(), { asOf: '2021-06-01' });
    expect(predictedOutcome(forecast(m, fixture('Strong', 'Weak')))).toBe('H');
    expect(predictedOutcome(forecast(m, fixture('Weak', 'Strong')))).toBe('A');
    expect(forecast(m, fixture('Strong', 'Mid 1')).expGoalDiff).toBeGreaterThan(0);
    expect(forecast(m, fixture('Mid 2', 'Strong')).expGoalDiff).toBeLessThan(0);
  });

  it('gives a goal difference whose sign agrees with the favourite for every pairing', () => {
    for (const [h, a] of pairs()) {
      const f = forecast(model, fixture(h, a));
      expect(Math.sign(f.expGoalDiff)).toBe(Math.sign(f.pHome - f.pAway));
    }
  });

  it('round-trips through JSON with identical forecasts', () => {
    const copy = JSON.parse(JSON.stringify(model)) as FittedModel;
    for (const [h, a] of pairs()) expect(forecast(copy, fixture(h, a))).toEqual(forecast(model, fixture(h, a)));
  });

  it('is deterministic and independent of the input order', () => {
    const random = rng(3);
    const shuffled = league
      .map((m) => ({ m, k: random() }))
      .sort((x, y) => x.k - y.k)
      .map(({ m }) => m);
    expect(fitModel({ kind }, shuffled, { asOf: AFTER })).toEqual(model);
  });

  it('uses only matches dated before asOf', () => {
    const future = { competition: 'xx.1', season: '2026-27', date: AFTER, home: 'Bottom', away: 'Top', homeGoals: 9, awayGoals: 0 };
    const m = fitModel({ kind }, [...league, future], { asOf: AFTER });
    expect(m).toEqual(model);
    expect(m.trainedThrough < AFTER).toBe(true);
  });

  it('rates a team with no history like the weakest teams, not like the league average', () => {
    const unknown = forecast(model, fixture('Newly Promoted', 'Good'));
    const average = forecast(model, fixture('Average', 'Good'));
    const poor = forecast(model, fixture('Poor', 'Good'));
    const bottom = forecast(model, fixture('Bottom', 'Good'));
    expect(unknown.pHome).toBeLessThan(average.pHome);
    // the prior is the mean of the few weakest (for Dixon–Coles, the weakest alone)
    expect(Math.min(Math.abs(unknown.pHome - poor.pHome), Math.abs(unknown.pHome - bottom.pHome))).toBeLessThan(0.1);
  });

  it('forecasts any pairing, including teams from different leagues', () => {
    const other = poissonLeague({ strengths: { Alpha: 0.4, Beta: 0, Gamma: -0.4 }, seasons: 3, competition: 'yy.1', seed: 11 });
    const m = fitModel({ kind }, [...league, ...other], { asOf: AFTER });
    const f: Forecast = forecast(m, fixture('Top', 'Gamma', 'xx.1'));
    expect(f.pHome + f.pDraw + f.pAway).toBeCloseTo(1, 12);
    expect(f.pHome).toBeGreaterThan(f.pAway);
    expect(() => forecast(m, fixture('Top', 'Top'))).toThrow(/itself/);
  });

  it('rejects unknown hyper-parameters', () => {
    expect(() => fitModel({ kind, hyper: { nonsense: 1 } }, league, { asOf: AFTER })).toThrow(/unknown hyper-parameter/);
  });

  it('gives (near) the same parameters from a warm start as from a cold fit', () => {
    const earlier = fitModel({ kind }, league, { asOf: '2025-12-01' });
    const warm = fitModel({ kind }, league, { asOf: AFTER, warmStart: earlier });
    expect(warm.matchCount).toBe(model.matchCount);
    if (kind === 'dixon-coles') {
      expect(maxParameterGap(warm.state as DixonColesState, model.state as DixonColesState)).toBeLessThan(1e-3);
    } else if (kind !== 'ensemble') {
      // rating models resume the same pass: the ratings are bit-for-bit those of a cold fit
      expect((warm.state as RatingState).pools).toEqual((model.state as RatingState).pools);
    }
    for (const [h, a] of pairs()) {
      const [w, c] = [forecast(warm, fixture(h, a)), forecast(model, fixture(h, a))];
      expect(w.pHome).toBeCloseTo(c.pHome, 3);
      expect(w.pAway).toBeCloseTo(c.pAway, 3);
    }
  });
});

function maxParameterGap(a: DixonColesState, b: DixonColesState): number {
  let gap = 0;
  for (const [g, group] of Object.entries(b.groups)) {
    const other = a.groups[g];
    gap = Math.max(gap, Math.abs(group.mu - other.mu), Math.abs(group.home - other.home), Math.abs(group.rho - other.rho));
    for (const [team, [att, def]] of Object.entries(group.teams)) {
      gap = Math.max(gap, Math.abs(att - other.teams[team][0]), Math.abs(def - other.teams[team][1]));
    }
  }
  return gap;
}

describe('dixon-coles specifics', () => {
  it('recovers the home advantage and the strength order of a simulated league', () => {
    const m = fitModel({ kind: 'dixon-coles' }, poissonLeague({ strengths: STRENGTHS, seasons: 8, seed: 5 }), { asOf: '2026-08-01' });
    const g = (m.state as DixonColesState).groups.xx;
    expect(g.home).toBeGreaterThan(0.1);
    expect(g.home).toBeLessThan(0.4);
    const strength = (t: string) => g.teams[t][0] - g.teams[t][1];
    expect(strength('Top')).toBeGreaterThan(strength('Good'));
    expect(strength('Good')).toBeGreaterThan(strength('Poor'));
    expect(strength('Poor')).toBeGreaterThan(strength('Bottom'));
  });

  it('rates a promoted team that has a second-tier history on the top-flight scale', () => {
    // "Climber" dominates tier 2 for two seasons, then is promoted
    const top = poissonLeague({ strengths: STRENGTHS, seasons: 3, competition: 'xx.1', seed: 2 });
    const second = poissonLeague({ strengths: { Climber: 0.0, Low1: -0.8, Low2: -0.8, Low3: -0.9 }, seasons: 2, competition: 'xx.2', seed: 4 });
    // the two tiers are linked by a team relegated after the first season
    const linked = second.map((m) => ({
      ...m,
      home: m.home === 'Low1' && m.season !== '2018-19' ? 'Bottom' : m.home,
      away: m.away === 'Low1' && m.season !== '2018-19' ? 'Bottom' : m.away,
    }));
    const topWithout = top.filter((m) => !(m.season !== '2018-19' && (m.home === 'Bottom' || m.away === 'Bottom')));
    const m = fitModel({ kind: 'dixon-coles' }, [...topWithout, ...linked], { asOf: '2021-08-01' });
    const g = (m.state as DixonColesState).groups.xx;
    expect(g.teams.Climber).toBeDefined();
    const strength = (t: string) => g.teams[t][0] - g.teams[t][1];
    expect(strength('Climber')).toBeGreaterThan(strength('Low2'));
  });
});

describe('options measured and left off (bench/model-levers.ts)', () => {
  // half-time scores: each goal falls in the first half with probability 0.45
  const random = rng(11);
  const firstHalf = (goals: number) => Array.from({ length: goals }, () => random()).filter((u) => u < 0.45).length;
  const withHalfTime = league.map((m) => ({ ...m, homeGoalsHalfTime: firstHalf(m.homeGoals), awayGoalsHalfTime: firstHalf(m.awayGoals) }));
  const byDefault = (kind: ModelKind) => fitModel({ kind }, league, { asOf: AFTER });

  it('Dixon–Coles: the half-time options change nothing without half-time scores', () => {
    const m = fitModel({ kind: 'dixon-coles', hyper: { halfTimeWeight: 0.5, decidedSecondHalfDiscount: 0.5 } }, league, { asOf: AFTER });
    for (const [h, a] of pairs()) expect(forecast(m, fixture(h, a))).toEqual(forecast(byDefault('dixon-coles'), fixture(h, a)));
  });

  it.each([
    ['dixon-coles', { halfTimeWeight: 0.5 }],
    ['dixon-coles', { decidedSecondHalfDiscount: 0.5 }],
    ['dixon-coles', { teamHomeRidge: 30 }],
    ['dixon-coles', { goalCap: 6 }],
    ['dixon-coles', { lowerTierWeight: 0.5 }],
    ['dixon-coles', { pastSeasonWeight: 0.8 }],
    ['elo', { earlyBoost: 1 }],
    ['pi-ratings', { earlyBoost: 1 }],
    ['pi-ratings', { halfTimeBlend: 0.3 }],
    ['pi-ratings', { errorPower: 0.5 }],
    ['pi-ratings', { errorPower: -0.5 }],
  ] as const)('%s with %p: valid forecasts, close to the default on a league without such effects', (kind, hyper) => {
    const m = fitModel({ kind, hyper }, withHalfTime, { asOf: AFTER });
    const reference = byDefault(kind);
    for (const [h, a] of pairs()) {
      const [f, g] = [forecast(m, fixture(h, a)), forecast(reference, fixture(h, a))];
      expect(f.pHome + f.pDraw + f.pAway).toBeCloseTo(1, 12);
      expect(Math.abs(f.pHome - g.pHome)).toBeLessThan(0.08);
      const gap = STRENGTHS[h as keyof typeof STRENGTHS] - STRENGTHS[a as keyof typeof STRENGTHS];
      if (Math.abs(gap) >= 1.2) expect(Math.sign(f.pHome - f.pAway)).toBe(Math.sign(gap));
    }
  });

  it('Dixon–Coles with its own home advantage per team: stored with the strengths, used for home games only', () => {
    const m = fitModel({ kind: 'dixon-coles', hyper: { teamHomeRidge: 30 } }, withHalfTime, { asOf: AFTER });
    const g = (m.state as DixonColesState).groups.xx;
    for (const t of teams) expect(g.teams[t]).toHaveLength(3);
  });
});
