/**
 * Runs a model's walk-forward backtest (and its final fit) off the main thread, so that the API
 * keeps answering while a retrain takes its minute. Messages: progress, then one result or error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { defaultEvaluationWindow, walkForward, type BacktestResult, type ModelSpec, type TrainingMatch } from './model';

export interface TrainingInput {
  spec: ModelSpec;
  matches: (TrainingMatch & { id: number })[];
  evaluationSeasons: number;
}

export type TrainingMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'result'; result: BacktestResult; backtestMs: number }
  | { type: 'error'; message: string };

if (parentPort) {
  const input = workerData as TrainingInput;
  const post = (m: TrainingMessage) => parentPort!.postMessage(m);
  try {
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
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}
