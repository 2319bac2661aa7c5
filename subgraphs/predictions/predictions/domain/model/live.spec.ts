import { applyResults, fitModel, forecast, MODEL_KINDS, refitStrengths, strengthsOf, type FittedModel, type TrainingMatch } from '.';
import type { RatingState } from './rating-model';
import type { EnsembleState } from './ensemble';
import { poissonLeague } from '../../../../../test/support/predictions/synthetic-matches';

const STRENGTHS = { Top: 0.8, Good: 0.4, Mid: 0, Average: 0, Poor: -0.4, Bottom: -0.8 };
const league = poissonLeague({ strengths: STRENGTHS, seasons: 5, seed: 21 });
// the last season's second month arrives live, after the version was trained
const cutOff = '2022-09-10';
const before = league.filter((m) => m.date < cutOff);
const after = league.filter((m) => m.date >= cutOff);
const next = { competition: 'xx.1', date: '2023-08-20', home: 'Bottom', away: 'Top' };

const ratings = (m: FittedModel) => (m.state as RatingState).pools;

describe('live ratings: results that arrive after the fit', () => {
  it.each(['elo', 'pi-ratings'] as const)('%s: the update rule on new results gives the ratings of a fit on all of them', (kind) => {
    const trained = fitModel({ kind }, before, { asOf: cutOff });
    const live = applyResults(trained, after);
    const full = fitModel({ kind }, league, { asOf: '2023-08-01' });
    expect(ratings(live)).toEqual(ratings(full));
    expect(live.matchCount).toBe(full.matchCount);
    expect(live.trainedThrough).toBe(full.trainedThrough);
    expect(forecast(live, next).pHome).toBeCloseTo(forecast(full, next).pHome, 4);
    expect(forecast(live, next)).not.toEqual(forecast(trained, next));
    // the version it came from is left as it was
    expect(ratings(trained)).toEqual(ratings(fitModel({ kind }, before, { asOf: cutOff })));
  });

  it('applies results one import at a time as well as all at once', () => {
    const trained = fitModel({ kind: 'elo' }, before, { asOf: cutOff });
    let stepwise = trained;
    for (let i = 0; i < after.length; i += 7) stepwise = applyResults(stepwise, after.slice(i, i + 7));
    expect(ratings(stepwise)).toEqual(ratings(applyResults(trained, after)));
  });

  it('changes the ratings of the teams that played only', () => {
    const trained = fitModel({ kind: 'elo' }, before, { asOf: cutOff });
    const one: TrainingMatch = { competition: 'xx.1', season: '2022-23', date: '2022-10-20', home: 'Bottom', away: 'Top', homeGoals: 5, awayGoals: 0 };
    const live = applyResults(trained, [one]);
    const pool = (m: FittedModel) => (m.state as RatingState).pools['xx.1'].teams;
    expect(pool(live).Bottom.rating[0]).toBeGreaterThan(pool(trained).Bottom.rating[0]);
    expect(pool(live).Top.rating[0]).toBeLessThan(pool(trained).Top.rating[0]);
    expect(pool(live).Mid).toEqual(pool(trained).Mid);
  });

  it('leaves Dixon–Coles strengths to the refit, which gives (near) the strengths of a cold fit', () => {
    const trained = fitModel({ kind: 'dixon-coles' }, before, { asOf: cutOff });
    expect(applyResults(trained, after)).toBe(trained);
    const refitted = refitStrengths(trained, league, '2023-08-01');
    const cold = fitModel({ kind: 'dixon-coles' }, league, { asOf: '2023-08-01' });
    expect(refitted.trainedThrough).toBe(cold.trainedThrough);
    expect(forecast(refitted, next).pHome).toBeCloseTo(forecast(cold, next).pHome, 3);
  });

  it('ensemble: the rating components update at once, the Dixon–Coles component by the refit', () => {
    const trained = fitModel({ kind: 'ensemble' }, before, { asOf: cutOff });
    const rated = applyResults(trained, after);
    const components = (m: FittedModel) => (m.state as EnsembleState).components;
    expect(strengthsOf(rated)).toBe(strengthsOf(trained));
    expect(components(rated).filter((c) => c.kind !== 'dixon-coles')).not.toEqual(components(trained).filter((c) => c.kind !== 'dixon-coles'));
    const refitted = refitStrengths(rated, league, '2023-08-01');
    expect(strengthsOf(refitted)!.trainedThrough).toBe(after[after.length - 1].date);
    const full = fitModel({ kind: 'ensemble' }, league, { asOf: '2023-08-01' });
    expect(forecast(refitted, next).pHome).toBeCloseTo(forecast(full, next).pHome, 3);
    expect(refitted.trainedThrough).toBe(full.trainedThrough);
  });

  it('applies a late result of the previous season to the ratings without moving any team back a season', () => {
    const trained = fitModel({ kind: 'elo' }, league, { asOf: '2023-08-01' });
    const late: TrainingMatch = { competition: 'xx.1', season: '2021-22', date: '2021-10-30', home: 'Poor', away: 'Good', homeGoals: 3, awayGoals: 0 };
    const live = applyResults(trained, [late]);
    const before = (trained.state as RatingState).pools['xx.1'];
    const after = (live.state as RatingState).pools['xx.1'];
    expect(after.season).toBe(before.season);
    expect(after.seasonsSeen).toBe(before.seasonsSeen);
    expect(after.teams.Poor.season).toBe(before.teams.Poor.season);
    expect(after.teams.Poor.rating[0]).toBeGreaterThan(before.teams.Poor.rating[0]);
    expect(after.teams.Good.rating[0]).toBeLessThan(before.teams.Good.rating[0]);
    // by exactly one update: what Elo moves one side, it takes from the other
    expect(after.teams.Poor.rating[0] - before.teams.Poor.rating[0]).toBeCloseTo(before.teams.Good.rating[0] - after.teams.Good.rating[0], 9);
    expect((live.state as RatingState).lastCompetition).toEqual((trained.state as RatingState).lastCompetition);
    expect(live.trainedThrough).toBe(trained.trainedThrough);
  });

  it('a version stored before a setting was added takes in results and refits as one with that setting at its default', () => {
    const trained = fitModel({ kind: 'ensemble' }, before, { asOf: cutOff });
    // the settings this version could not know about: gone from its stored hyper-parameters
    const added = [
      'halfTimeWeight',
      'decidedSecondHalfDiscount',
      'teamHomeRidge',
      'goalCap',
      'lowerTierWeight',
      'pastSeasonWeight',
      'halfTimeBlend',
      'errorPower',
      'earlyBoost',
      'earlyMatches',
    ];
    const stored: FittedModel = JSON.parse(JSON.stringify(trained));
    for (const c of (stored.state as EnsembleState).components) for (const k of added) delete c.hyper[k];
    const [live, current] = [applyResults(stored, after), applyResults(trained, after)];
    expect(forecast(live, next)).toEqual(forecast(current, next));
    const [refitted, reference] = [refitStrengths(live, league, '2023-08-01'), refitStrengths(current, league, '2023-08-01')];
    expect(forecast(refitted, next).pHome).toBeCloseTo(forecast(reference, next).pHome, 6);
  });

  it.each(MODEL_KINDS)('%s: no results, no change', (kind) => {
    const trained = fitModel({ kind }, before, { asOf: cutOff });
    expect(applyResults(trained, [])).toBe(trained);
  });
});
