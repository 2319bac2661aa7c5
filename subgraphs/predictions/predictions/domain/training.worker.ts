/**
 * Model fitting off the main thread, so that the API keeps answering: a retrain's walk-forward
 * backtest and final fit (its minute), or the warm refit of a version's Dixon–Coles strengths when
 * results arrive (live ratings). Messages: progress, then one result or error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { defaultEvaluationWindow, refitStrengths, walkForward, type BacktestResult, type FittedModel, type ModelSpec, type TrainingMatch } from './model';

export type WorkerTask =
  | { task: 'backtest'; spec: ModelSpec; matches: (TrainingMatch & { id: number })[]; evaluationSeasons: number }
  | { task: 'refit-strengths'; model: FittedModel; matches: TrainingMatch[]; asOf: string };

export type TrainingMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'result'; result: BacktestResult; backtestMs: number }
  | { type: 'refitted'; model: FittedModel }
  | { type: 'error'; message: string };

function backtest(input: Extract<WorkerTask, { task: 'backtest' }>, post: (m: TrainingMessage) => void): void {
  const started = Date.now();
  let lastPost = 0;
  const result = walkForward(input.spec, input.matches, {
    evaluate: defaultEvaluationWindow(input.matches, input.evaluationSeasons),
    onProgress: (done, total) => {
      const now = Date.now();
      if (now - lastPost > 250 || done === total) {
        lastPost = now;
        post({ type: 'progress', done, total });
      }
    },
  });
  post({ type: 'result', result, backtestMs: Date.now() - started });
}

if (parentPort) {
  const input = workerData as WorkerTask;
  const post = (m: TrainingMessage) => parentPort!.postMessage(m);
  try {
    if (input.task === 'backtest') backtest(input, post);
    else post({ type: 'refitted', model: refitStrengths(input.model, input.matches, input.asOf) });
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}
