import type { PredictionStore, VersionRow } from '../store/prediction-store';
import { forecast, type FittedModel, type Fixture, type Forecast } from './model';

export interface ActiveVersion {
  version: VersionRow;
  model: FittedModel;
}

/** A stored version as the model module sees it; `trainedThrough` is the latest result in its ratings. */
export function fittedModelOf(row: VersionRow & { state: unknown }): FittedModel {
  return {
    kind: row.kind as FittedModel['kind'],
    hyper: row.hyper,
    trainedThrough: row.live.ratingsThrough,
    trainingFrom: row.trainingFrom,
    matchCount: row.matchCount + row.live.results,
    state: row.state,
  };
}

/** The active model version, loaded once and kept until another version is activated. */
export class ActiveModel {
  private cached: Promise<ActiveVersion | undefined> | undefined;

  constructor(private readonly store: PredictionStore) {}

  get(): Promise<ActiveVersion | undefined> {
    const loading = (this.cached ??= this.store.activeVersion().then((row) => {
      if (!row) {
        this.cached = undefined;
        return undefined;
      }
      const { state: _, ...version } = row;
      return { version, model: fittedModelOf(row) };
    }));
    // a failed load (the database unreachable) is not kept: the next call asks again
    loading.catch(() => {
      if (this.cached === loading) this.cached = undefined;
    });
    return loading;
  }

  invalidate(): void {
    this.cached = undefined;
  }

  async forecast(fixture: Fixture): Promise<{ version: VersionRow; forecast: Forecast } | undefined> {
    const active = await this.get();
    return active && { version: active.version, forecast: forecast(active.model, fixture) };
  }
}
