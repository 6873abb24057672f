/**
 * Query keys of one kind of resource, from general to specific: invalidating `all`
 * refreshes every list and detail of that kind. Each feature adds its own narrower keys.
 */
export function queryKeysOf<const Name extends string>(name: Name) {
  const all = [name] as const;
  return {
    all,
    list: () => [...all, 'list'] as const,
    detail: (id: string) => [...all, 'detail', id] as const,
  };
}
