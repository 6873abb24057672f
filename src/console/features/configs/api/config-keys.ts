/** Query keys of the configs, from general to specific: invalidating `all` refreshes all. */
export const configsKeys = {
  all: ['configs'] as const,
  lists: () => [...configsKeys.all, 'list'] as const,
  details: () => [...configsKeys.all, 'detail'] as const,
  /** One config by id, or `live`. */
  detail: (id: string) => [...configsKeys.details(), id] as const,
  histories: () => [...configsKeys.all, 'history'] as const,
  history: (id: string) => [...configsKeys.histories(), id] as const,
  schema: () => ['config-schema'] as const,
};
