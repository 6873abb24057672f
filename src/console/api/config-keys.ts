import { queryKeysOf } from '../lib/resource-queries';

/** Query keys of the configs, from general to specific: invalidating `all` refreshes all. */
export const configsKeys = {
  ...queryKeysOf('configs'),
  histories: () => [...configsKeys.all, 'history'] as const,
  history: (id: string) => [...configsKeys.histories(), id] as const,
  /** The history page's pages: under `history(id)`, apart from its first page alone. */
  historyPages: (id: string) => [...configsKeys.history(id), 'pages'] as const,
  /** The newest drafts (the A/B test pages' list): under `list()`, so a list refresh takes it. */
  newestDrafts: () => [...configsKeys.list(), 'newest drafts'] as const,
  /** A draft's review timeline. */
  reviews: (id: string) => [...configsKeys.all, 'reviews', id] as const,
  /**
   * A config's apps and tests, read from its YAML: by the config's own id and revision,
   * whose text never changes, so this is derived from the detail, not a second copy of it.
   */
  contents: (id: string, revision: number) =>
    [...configsKeys.all, 'contents', id, revision] as const,
  schema: () => ['config-schema'] as const,
};
