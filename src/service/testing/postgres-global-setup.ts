/**
 * Vitest global set-up of the `postgres` project: one throwaway cluster for the run (each
 * test service makes its own schema in it), stopped and deleted at the end. Test-only.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresDataDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgresCluster();
  project.provide('postgresUrl', cluster.url);
  project.provide('postgresDataDir', cluster.dataDir);
  return () => cluster.stop();
}
