/**
 * Live ratings between retrains: results that arrive after a fit enter the fitted model without a
 * new fit. The rating models (Elo, pi-ratings) take them at once by their own update rule; the
 * Dixon–Coles strengths need a refit, warm-started from the current strengths (cheap, but the
 * service runs it as a background job).
 */
import { fitModel } from './models';
import { ELO_RULES } from './elo';
import type { EnsembleState } from './ensemble';
import { PI_RULES } from './pi-ratings';
import { continueRatingModel, type RatingRules, type RatingState } from './rating-model';
import type { FittedModel, ModelKind, TrainingMatch } from './types';

const RULES: Partial<Record<ModelKind, RatingRules>> = { elo: ELO_RULES, 'pi-ratings': PI_RULES };

/** The model with the results applied by the rating models' update rule (Dixon–Coles parts unchanged). */
export function applyResults(model: FittedModel, results: readonly TrainingMatch[]): FittedModel {
  if (results.length === 0) return model;
  const rules = RULES[model.kind];
  if (rules) {
    const state = continueRatingModel(rules, model.hyper, model.state as RatingState, results);
    return { ...model, state, trainedThrough: latest(model.trainedThrough, results), matchCount: model.matchCount + results.length };
  }
  if (model.kind === 'ensemble') {
    return withComponents(
      model,
      (model.state as EnsembleState).components.map((c) => applyResults(c, results)),
    );
  }
  return model;
}

/** Whether the model has Dixon–Coles strengths, which take new results only by a refit. */
export function hasStrengths(model: { kind: string }): boolean {
  return model.kind === 'dixon-coles' || model.kind === 'ensemble';
}

/**
 * The model with its Dixon–Coles strengths refitted on the matches before `asOf`, warm-started from
 * the current ones: the same strengths a retrain on those matches would fit.
 */
export function refitStrengths(model: FittedModel, matches: readonly TrainingMatch[], asOf: string): FittedModel {
  const strengths = strengthsOf(model);
  if (!strengths) return model;
  return withStrengths(model, fitModel({ kind: strengths.kind, hyper: strengths.hyper }, matches, { asOf, warmStart: strengths }));
}

/** The model with these Dixon–Coles strengths in place of its own (the rest, e.g. live ratings, kept). */
export function withStrengths(model: FittedModel, strengths: FittedModel): FittedModel {
  if (model.kind === 'dixon-coles') return strengths;
  if (model.kind === 'ensemble') {
    return withComponents(
      model,
      (model.state as EnsembleState).components.map((c) => (c.kind === 'dixon-coles' ? strengths : c)),
    );
  }
  return model;
}

/** The Dixon–Coles part of a model (itself, or the ensemble's component); undefined when it has none. */
export function strengthsOf(model: FittedModel): FittedModel | undefined {
  if (model.kind === 'dixon-coles') return model;
  if (model.kind === 'ensemble') return (model.state as EnsembleState).components.find((c) => c.kind === 'dixon-coles');
  return undefined;
}

function withComponents(model: FittedModel, components: FittedModel[]): FittedModel {
  return {
    ...model,
    state: { components } satisfies EnsembleState,
    trainedThrough: components.map((c) => c.trainedThrough).reduce((a, b) => (a > b ? a : b)),
    trainingFrom: components.map((c) => c.trainingFrom).reduce((a, b) => (a < b ? a : b)),
    matchCount: Math.max(...components.map((c) => c.matchCount)),
  };
}

function latest(date: string, results: readonly TrainingMatch[]): string {
  return results.reduce((d, m) => (m.date > d ? m.date : d), date);
}
