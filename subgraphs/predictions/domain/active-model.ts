import type { PredictionStore, VersionRow } from '../store/prediction-store';
import { forecast, type FittedModel, type Fixture, type Forecast } from './model';

export interface ActiveVersion {
  version: VersionRow;
  model: FittedModel;
}

/** The active model version, loaded once and kept until another version is activated. */
export class ActiveModel {
  private cached: Promise<ActiveVersion | undefined> | undefined;

  constructor(private readonly store: PredictionStore) {}

  get(): Promise<ActiveVersion | undefined> {
    this.cached ??= this.store.activeVersion().then((row) => {
      if (!row) {
        this.cached = undefined;
        return undefined;
      }
      const { state, ...version } = row;
      const model: FittedModel = {
        kind: version.kind as FittedModel['kind'],
        hyper: version.hyper,
        trainedThrough: version.trainedThrough,
        trainingFrom: version.trainingFrom,
        matchCount: version.matchCount,
        state,
      };
      return { version, model };
    });
    return this.cached;
  }

  invalidate(): void {
    this.cached = undefined;
  }

  async forecast(fixture: Fixture): Promise<{ version: VersionRow; forecast: Forecast } | undefined> {
    const active = await this.get();
    return active && { version: active.version, forecast: forecast(active.model, fixture) };
  }
}
