/**
 * A worker thread of the edit pool (edit-pool.ts): it runs edit tasks and keeps the parsed
 * documents of the configs routed to it, within its share of the cache budget.
 */
import { workerData } from 'node:worker_threads';
import { DocumentCache } from './document-cache';
import { runEditTask, type EditTask, type EditTaskResult } from './edit-task';

export interface EditWorkerData {
  readonly cacheBytes: number;
}

const cache = new DocumentCache((workerData as EditWorkerData).cacheBytes);

export default function editWorker(task: EditTask): EditTaskResult {
  return runEditTask(cache, task);
}
