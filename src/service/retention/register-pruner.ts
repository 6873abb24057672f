/** The pruner in the app's life: started when the app is ready, closed before the store is. */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../domain/clock';
import type { PruningStore } from '../store/retention/pruning-store';
import { Pruner, type RetentionSettings } from './pruner';

export function registerPruner(
  app: FastifyInstance,
  store: PruningStore,
  clock: Clock,
  settings: RetentionSettings,
): Pruner {
  const pruner = new Pruner(store, clock, settings, app.log);
  app.addHook('onReady', async () => pruner.start());
  app.addHook('onClose', () => pruner.close());
  return pruner;
}
