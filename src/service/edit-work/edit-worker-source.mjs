// The edit worker run from its TypeScript source (tests, and the service before a build):
// tsx's loader is registered in this thread before the worker module is imported.
import { register } from 'tsx/esm/api';

register();
const { default: editWorker } = await import('./edit-worker.ts');
export default editWorker;
