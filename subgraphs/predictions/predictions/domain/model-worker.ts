import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../../../../lib/paths';
import type { FittedModel, TrainingMatch } from './model';
import type { TrainingMessage, WorkerTask } from './training.worker';

export type { TrainingMessage, WorkerTask };

/** The worker thread that fits models (training.worker.ts, compiled). */
export const MODEL_WORKER = join(projectRoot(), 'dist', 'subgraphs', 'predictions', 'predictions', 'domain', 'training.worker.js');

/** A version's Dixon–Coles strengths refitted warm-started in the model worker thread, off the event loop. */
export function refitInWorker(model: FittedModel, matches: TrainingMatch[], asOf: string): Promise<FittedModel> {
  return new Promise((resolve, reject) => {
    const task: WorkerTask = { task: 'refit-strengths', model, matches, asOf };
    const worker = new Worker(MODEL_WORKER, { workerData: task });
    let settled = false;
    worker.on('message', (m: TrainingMessage) => {
      settled = true;
      if (m.type === 'refitted') resolve(m.model);
      else reject(new Error(m.type === 'error' ? m.message : `unexpected message ${m.type}`));
      void worker.terminate();
    });
    worker.on('error', (err) => {
      if (!settled) reject(err);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`model worker exited with code ${code}`));
    });
  });
}
