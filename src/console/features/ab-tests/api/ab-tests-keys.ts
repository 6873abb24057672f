/** Query keys of the A/B test views: a config read for its apps and tests. */
export const abTestsKeys = {
  all: ['ab-tests'] as const,
  /** A config (by id, or `live`) with its contents. */
  source: (configId: string) => [...abTestsKeys.all, 'source', configId] as const,
};
