import { computeMetrics, defaultEvaluationWindow, walkForward, type TrainingMatch } from '.';
import { poissonLeague } from '../../../../../test/support/predictions/synthetic-matches';

const league = poissonLeague({ strengths: { A: 0.5, B: 0.2, C: 0, D: -0.2, E: -0.5 }, seasons: 4, seed: 9 });
const lastSeason = (m: TrainingMatch) => m.season === '2021-22';

describe('defaultEvaluationWindow', () => {
  const m = (competition: string, season: string): TrainingMatch => ({
    competition,
    season,
    date: `${season.slice(0, 4)}-09-01`,
    home: 'X',
    away: 'Y',
    homeGoals: 1,
    awayGoals: 0,
  });
  const seasons = ['2015-16', '2016-17', '2017-18', '2018-19', '2019-20', '2020-21', '2021-22', '2022-23'];

  it('takes the N seasons before the newest one, per competition', () => {
    const data = [...seasons.map((s) => m('aa.1', s)), ...seasons.slice(5).map((s) => m('bb.1', s))];
    const inWindow = defaultEvaluationWindow(data, 3);
    expect(seasons.filter((s) => inWindow(m('aa.1', s)))).toEqual(['2019-20', '2020-21', '2021-22']);
    expect(seasons.filter((s) => inWindow(m('bb.1', s)))).toEqual(['2020-21', '2021-22']);
    expect(inWindow(m('cc.1', '2020-21'))).toBe(false);
  });

  it('derives the season from the date when it is missing', () => {
    const inWindow = defaultEvaluationWindow(
      seasons.map((s) => m('aa.1', s)),
      1,
    );
    const { season: _, ...undated } = m('aa.1', '2021-22');
    expect(inWindow(undated)).toBe(true);
  });
});

describe('walkForward', () => {
  it('forecasts every evaluated match once, in date order, and scores them', () => {
    const result = walkForward({ kind: 'elo' }, league, { evaluate: lastSeason });
    expect(result.rows).toHaveLength(league.filter(lastSeason).length);
    const dates = result.rows.map((r) => r.match.date);
    expect([...dates].sort()).toEqual(dates);
    expect(result.metrics).toEqual(computeMetrics(result.rows));
    expect(result.final.trainedThrough).toBe(league[league.length - 1].date);
    expect(result.stopped).toBe(false);
  });

  it('never uses a result from the day of the forecast or later', () => {
    const evaluate = (m: TrainingMatch) => m.season === '2021-22';
    const base = walkForward({ kind: 'dixon-coles' }, league, { evaluate, refitEveryDays: 1 });
    // change one result in the middle of the window: earlier and same-day forecasts must not move
    const target = league.filter(evaluate)[10];
    const altered = league.map((m) => (m === target ? { ...m, homeGoals: m.homeGoals + 5 } : m));
    const changed = walkForward({ kind: 'dixon-coles' }, altered, { evaluate, refitEveryDays: 1 });
    base.rows.forEach((row, i) => {
      const other = changed.rows[i];
      if (row.match.date <= target.date) expect(other.forecast).toEqual(row.forecast);
    });
    expect(changed.rows.some((r, i) => r.match.date > target.date && r.forecast.pHome !== base.rows[i].forecast.pHome)).toBe(true);
  });

  it('reports progress and can be stopped', () => {
    const progress: [number, number][] = [];
    let calls = 0;
    const result = walkForward({ kind: 'pi-ratings' }, league, {
      evaluate: lastSeason,
      onProgress: (done, total) => progress.push([done, total]),
      shouldStop: () => ++calls > 3,
    });
    expect(result.stopped).toBe(true);
    expect(progress).toHaveLength(3);
    expect(progress.map(([done]) => done)).toEqual([...progress.map(([done]) => done)].sort((a, b) => a - b));
    expect(result.rows.length).toBe(progress[2][0]);
    expect(progress[0][1]).toBe(league.filter(lastSeason).length);
  });

  it('refits less often with a longer refit interval but forecasts the same matches', () => {
    const weekly = walkForward({ kind: 'dixon-coles' }, league, { evaluate: lastSeason });
    const monthly = walkForward({ kind: 'dixon-coles' }, league, { evaluate: lastSeason, refitEveryDays: 30 });
    expect(monthly.rows.map((r) => r.match)).toEqual(weekly.rows.map((r) => r.match));
    expect(monthly.rows.map((r) => r.forecast)).not.toEqual(weekly.rows.map((r) => r.forecast));
  });
});
