/**
 * Success and failure notices, announced by a polite live region (components/notices.tsx)
 * and dismissed after a while or by the person.
 */
import { useSyncExternalStore } from 'react';

export type NoticeKind = 'success' | 'error' | 'info';

export interface Notice {
  readonly id: number;
  readonly kind: NoticeKind;
  readonly text: string;
}

const NOTICE_MS = 8_000;
let notices: readonly Notice[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function set(next: readonly Notice[]): void {
  notices = next;
  for (const listener of listeners) listener();
}

export function dismissNotice(id: number): void {
  if (notices.some((notice) => notice.id === id)) {
    set(notices.filter((notice) => notice.id !== id));
  }
}

export function notify(text: string, kind: NoticeKind = 'success'): void {
  const id = nextId++;
  // At most three at a time: the oldest go first.
  set([...notices.slice(-2), { id, kind, text }]);
  window.setTimeout(() => dismissNotice(id), NOTICE_MS);
}

export function clearNotices(): void {
  set([]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useNotices(): readonly Notice[] {
  return useSyncExternalStore(subscribe, () => notices);
}
