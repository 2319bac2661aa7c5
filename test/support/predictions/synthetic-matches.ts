/** Deterministic synthetic leagues for the model tests. */
import type { TrainingMatch } from '../../../subgraphs/predictions/predictions/domain/model/index';

/** mulberry32: a tiny seeded PRNG, so every test run sees the same matches. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function poisson(mean: number, random: () => number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = random();
  while (p > limit) {
    k++;
    p *= random();
  }
  return k;
}

function isoDate(year: number, dayOfSeason: number): string {
  return new Date(Date.UTC(year, 7, 10) + dayOfSeason * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Double round robins over `seasons` seasons from 2018-19: team i has strength strengths[i]
 * (log-goal scale); goals are Poisson around exp(0.15 + 0.25·home + s_h − s_a).
 */
export function poissonLeague(opts: { strengths: Record<string, number>; seasons: number; competition?: string; seed?: number }): TrainingMatch[] {
  const random = rng(opts.seed ?? 1);
  const teams = Object.keys(opts.strengths);
  const competition = opts.competition ?? 'xx.1';
  const out: TrainingMatch[] = [];
  for (let s = 0; s < opts.seasons; s++) {
    const year = 2018 + s;
    const season = `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
    let day = 0;
    for (const home of teams) {
      for (const away of teams) {
        if (home === away) continue;
        const base = opts.strengths[home] - opts.strengths[away];
        out.push({
          competition,
          season,
          date: isoDate(year, day),
          home,
          away,
          homeGoals: poisson(Math.exp(0.15 + 0.25 + base / 2), random),
          awayGoals: poisson(Math.exp(0.15 - base / 2), random),
        });
        day = (day + 2) % 270;
      }
    }
  }
  return out;
}

/** A league where "Strong" beats everyone 2-0, "Weak" loses to everyone 0-2 and the rest draw 1-1. */
export function dominantLeague(seasons = 3, competition = 'xx.1'): TrainingMatch[] {
  const teams = ['Strong', 'Mid 1', 'Mid 2', 'Mid 3', 'Weak'];
  const rank = (t: string) => (t === 'Strong' ? 2 : t === 'Weak' ? 0 : 1);
  const out: TrainingMatch[] = [];
  for (let s = 0; s < seasons; s++) {
    const year = 2018 + s;
    const season = `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
    let day = 0;
    for (const home of teams) {
      for (const away of teams) {
        if (home === away) continue;
        const diff = rank(home) - rank(away);
        const [homeGoals, awayGoals] = diff > 0 ? [2, 0] : diff < 0 ? [0, 2] : [1, 1];
        out.push({ competition, season, date: isoDate(year, (day += 7)), home, away, homeGoals, awayGoals });
      }
    }
  }
  return out;
}
