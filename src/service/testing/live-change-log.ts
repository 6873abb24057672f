/**
 * What a `LiveChanges` announces, kept in order, with a wait for the next announcement
 * that matches: for tests of the stores' live changes. Test-only.
 */
import type { LiveChanges } from '../store/live-changes/live-changes';
import type { NewConfig } from '../store/records';
import type { Store } from '../store/store';

export interface LiveChangeLog {
  readonly heard: (string | null)[];
  /** Resolves once an announcement matching `accountId` arrives (any, for undefined). */
  next(accountId?: string | null, timeoutMs?: number): Promise<string | null>;
  /** Nothing heard from now on for `ms` (announcements already heard are dropped first). */
  quietFor(ms: number): Promise<(string | null)[]>;
  stop(): void;
}

export function listenTo(changes: LiveChanges): LiveChangeLog {
  const heard: (string | null)[] = [];
  const waiting = new Set<() => void>();
  const stop = changes.subscribe((accountId) => {
    heard.push(accountId);
    for (const wake of [...waiting]) wake();
  });
  let read = 0;
  return {
    heard,
    async next(accountId, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (read < heard.length) {
          const candidate = heard[read++] as string | null;
          if (accountId === undefined || candidate === accountId) return candidate;
        }
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(
            `no live change for ${String(accountId)} within ${timeoutMs} ms (heard ${JSON.stringify(heard)})`,
          );
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiting.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiting.add(wake);
        });
      }
    },
    async quietFor(ms) {
      read = heard.length;
      await new Promise((resolve) => setTimeout(resolve, ms));
      const since = heard.slice(read);
      read = heard.length;
      return since;
    },
    stop,
  };
}

/** Publishes a copy of the live config: a unit of work that changes what apps read. */
export function activateLive(store: Store, accountId: string): Promise<void> {
  return store.changeConfigs(accountId, { live: true }, (tx) => {
    const live = tx.get(tx.liveId() ?? '');
    if (live === undefined) throw new Error('no live config');
    const id = `cfg_copy_${Date.now()}_${Math.random().toString(36).slice(2)}`;
    const at = new Date().toISOString();
    tx.insert({
      id,
      kind: 'published',
      label: `Copy of ${live.label}`,
      yaml: live.yaml,
      revision: 1,
      base_config_id: live.id,
      valid: true,
      error_count: 0,
      warning_count: live.warning_count,
      issues: live.issues,
      created_at: at,
      updated_at: at,
      published_at: at,
    });
    tx.setLive(id, at);
  });
}

/** A new draft: a unit of work that changes nothing apps read. */
export function addDraft(store: Store, accountId: string, id: string): Promise<void> {
  const at = new Date().toISOString();
  const draft: Omit<NewConfig, 'account_id'> = {
    id,
    kind: 'draft',
    label: `Draft ${id}`,
    yaml: 'apps: []\nab_tests: []\n',
    revision: 1,
    base_config_id: null,
    valid: true,
    error_count: 0,
    warning_count: 0,
    issues: [],
    created_at: at,
    updated_at: at,
    published_at: null,
  };
  return store.changeConfigs(accountId, {}, (tx) => tx.insert(draft));
}
