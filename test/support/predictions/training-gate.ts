import type { TrainingService } from '../../../subgraphs/predictions/predictions/domain/training';

/**
 * Holds every retrain run at its start, through TrainingService.testHooks (in-process only): the run
 * is recorded as `running` and waits until the test lets it go on or fail. States that are otherwise
 * only seen by racing a poll against the job (a run in progress, the 409 it causes, a failed run)
 * become deterministic.
 */
export interface TrainingGate {
  /** Settles once the run is held (it has been recorded as running). */
  reached(runId: string): Promise<void>;
  /** Lets a held run (or, when it arrives, that run) do its work. */
  release(runId: string): void;
  /** Makes a held run (or, when it arrives, that run) fail with this error. */
  fail(runId: string, message: string): void;
  /** Runs started from now on are no longer held; held runs stay until released or failed. */
  open(): void;
}

export function trainingGate(training: TrainingService): TrainingGate {
  const decisions = new Map<string, { go: boolean; message?: string }>();
  const held = new Map<string, { resolve(): void; reject(err: Error): void }>();
  const arrived = new Map<string, () => void>();
  const arrivals = new Map<string, Promise<void>>();
  const arrival = (runId: string) => {
    let p = arrivals.get(runId);
    if (!p) {
      p = new Promise<void>((resolve) => arrived.set(runId, resolve));
      arrivals.set(runId, p);
    }
    return p;
  };
  const decide = (runId: string, decision: { go: boolean; message?: string }) => {
    const h = held.get(runId);
    if (!h) return void decisions.set(runId, decision);
    held.delete(runId);
    if (decision.go) h.resolve();
    else h.reject(new Error(decision.message));
  };
  training.testHooks.running = (runId, signal) => {
    void arrival(runId);
    arrived.get(runId)!();
    return new Promise<void>((resolve, reject) => {
      held.set(runId, { resolve, reject });
      signal?.addEventListener('abort', () => decide(runId, { go: false, message: 'interrupted by shutdown' }));
      const early = decisions.get(runId);
      if (early) decide(runId, early);
    });
  };
  return {
    reached: arrival,
    release: (runId) => decide(runId, { go: true }),
    fail: (runId, message) => decide(runId, { go: false, message }),
    open: () => delete training.testHooks.running,
  };
}
