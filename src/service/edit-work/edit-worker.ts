/**
 * A worker thread of the edit pool (edit-pool.ts): it runs edit tasks and keeps the parsed
 * documents of the configs routed to it, within its share of the cache budget.
 */
import { workerData } from 'node:worker_threads';
import { DocumentCache } from './document-cache';
import { runEditTask, type EditTask, type EditTaskResult } from './edit-task';

export interface EditWorkerData {
  readonly cacheBytes: number;
  /** Edit a made-up config a few times before the first task (see warmUp). */
  readonly warmUp: boolean;
}

const settings = workerData as EditWorkerData;
const cache = new DocumentCache(settings.cacheBytes);
if (settings.warmUp) warmUp();

export default function editWorker(task: EditTask): EditTaskResult {
  return runEditTask(cache, task);
}

/**
 * A new thread runs the parser, writer and validator unoptimised: its first edits of a
 * 1,000-app config took twice as long as later ones. Edits of a made-up config with what
 * configs hold (comments, quoted and plain scalars, settings, A/B tests), as the thread
 * starts, compile them before anyone waits for an edit.
 */
function warmUp(): void {
  const apps = Array.from(
    { length: 500 },
    (_, index) =>
      `  # app ${index}\n  - id: app-${index}\n    name: App ${index}\n    platform: ${index % 2 ? 'ios' : 'web'}\n    enabled: ${index % 3 !== 0}\n    settings:\n      theme: dark\n      retries: ${index % 5}\n      flow: "v${index % 3}"\n`,
  );
  const tests = Array.from(
    { length: 5 },
    (_, index) =>
      `  - id: test-${index}\n    app: app-${index}\n    description: Warm-up\n    status: draft\n    variants:\n      - id: a\n        weight: 50\n      - id: b\n        weight: 50\n        settings:\n          theme: light\n`,
  );
  const text = `# Warm-up\napps:\n${apps.join('')}ab_tests:\n${tests.join('')}`;
  for (let round = 0; round < 8; round++) {
    runEditTask(new DocumentCache(0), {
      configId: 'warm-up',
      text,
      operations: [{ update_app: [{ id: `app-${round}`, name: 'Warm' }] }],
      now: new Date(),
      resultId: 'warm-up',
      source: { type: 'draft', name: 'Warm-up' },
    });
  }
}
