/**
 * One entry point over all model kinds: default hyper-parameters, fitting and forecasting.
 */
import { matchesBefore } from './data';
import { DIXON_COLES_DEFAULTS, fitDixonColes, forecastDixonColes, type DixonColesState } from './dixon-coles';
import { ELO_DEFAULTS, ELO_RULES } from './elo';
import { combineForecasts, ENSEMBLE_COMPONENTS, ENSEMBLE_DEFAULTS, ensembleWeights, type EnsembleState } from './ensemble';
import { PI_DEFAULTS, PI_RULES } from './pi-ratings';
import { fitRatingModel, forecastRatingModel, type RatingRules, type RatingState } from './rating-model';
import type { FitOptions, FittedModel, Fixture, Forecast, ModelKind, ModelSpec, TrainingMatch } from './types';

const DEFAULTS: Record<ModelKind, Record<string, number>> = {
  'dixon-coles': DIXON_COLES_DEFAULTS,
  elo: ELO_DEFAULTS,
  'pi-ratings': PI_DEFAULTS,
  ensemble: ENSEMBLE_DEFAULTS,
};

const RATING_RULES: Partial<Record<ModelKind, RatingRules>> = { elo: ELO_RULES, 'pi-ratings': PI_RULES };

export function defaultSpec(kind: ModelKind): Required<ModelSpec> {
  const defaults = DEFAULTS[kind];
  if (!defaults) throw new Error(`unknown model kind "${kind}"`);
  return { kind, hyper: { ...defaults } };
}

/** The spec's hyper-parameters over the kind's defaults; an unknown name is an error, not silently ignored. */
export function resolveHyper(spec: ModelSpec): Record<string, number> {
  const { hyper: defaults } = defaultSpec(spec.kind);
  for (const [name, value] of Object.entries(spec.hyper ?? {})) {
    if (!(name in defaults)) throw new Error(`${spec.kind}: unknown hyper-parameter "${name}"`);
    if (!Number.isFinite(value)) throw new Error(`${spec.kind}: hyper-parameter "${name}" must be a finite number`);
  }
  return { ...defaults, ...spec.hyper };
}

/** Fits on the matches dated strictly before `opts.asOf`. */
export function fitModel(spec: ModelSpec, matches: readonly TrainingMatch[], opts: FitOptions): FittedModel {
  const hyper = resolveHyper(spec);
  const before = matchesBefore(matches, opts.asOf);
  if (before.length === 0) throw new Error(`no matches before ${opts.asOf} to fit on`);
  // a warm start from other settings could only mislead (the rating models resume from it); a setting
  // added since the warm start was fitted counts at its default (it was fitted as the default is: off)
  const warm =
    opts.warmStart && opts.warmStart.kind === spec.kind && sameHyper({ ...DEFAULTS[spec.kind], ...opts.warmStart.hyper }, hyper) ? opts.warmStart : undefined;

  if (spec.kind === 'ensemble') {
    const previous = (warm?.state as EnsembleState | undefined)?.components ?? [];
    const components = ENSEMBLE_COMPONENTS.map((kind) => fitModel({ kind }, before, { asOf: opts.asOf, warmStart: previous.find((c) => c.kind === kind) }));
    const state: EnsembleState = { components };
    return {
      kind: spec.kind,
      hyper,
      trainedThrough: components.map((c) => c.trainedThrough).reduce((a, b) => (a > b ? a : b)),
      trainingFrom: components.map((c) => c.trainingFrom).reduce((a, b) => (a < b ? a : b)),
      matchCount: Math.max(...components.map((c) => c.matchCount)),
      state,
    };
  }

  let state: unknown;
  let used: readonly TrainingMatch[] = before;
  const rules = RATING_RULES[spec.kind];
  if (rules) {
    state = fitRatingModel(rules, hyper, before, opts.asOf, warm?.state as RatingState | undefined);
  } else {
    ({ state, used } = fitDixonColes(hyper, before, opts.asOf, warm?.state as DixonColesState | undefined));
  }
  return {
    kind: spec.kind,
    hyper,
    trainedThrough: used[used.length - 1].date,
    trainingFrom: used[0].date,
    matchCount: used.length,
    state,
  };
}

/** Works for any pairing: teams from different leagues, and teams never seen (they get a prior). */
export function forecast(model: FittedModel, fixture: Fixture): Forecast {
  if (fixture.home === fixture.away) throw new Error(`a team cannot play itself ("${fixture.home}")`);
  const rules = RATING_RULES[model.kind];
  if (rules) return forecastRatingModel(rules, model.hyper, model.state as RatingState, fixture);
  if (model.kind === 'dixon-coles') return forecastDixonColes(model.state as DixonColesState, model.hyper, fixture);
  if (model.kind === 'ensemble') {
    const { components } = model.state as EnsembleState;
    return combineForecasts(
      components.map((c) => forecast(c, fixture)),
      ensembleWeights(model.hyper),
    );
  }
  throw new Error(`unknown model kind "${model.kind}"`);
}

function sameHyper(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(b);
  return Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
}
