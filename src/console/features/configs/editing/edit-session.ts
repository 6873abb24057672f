/**
 * The edit session of a config page in one place: the config the text was loaded from or
 * last saved to, its report, whether the editor holds unsaved edits, and a save refused
 * because of a newer version (412, or 409 edit_conflict). Every change is a named
 * transition of one reducer.
 */
import { useReducer } from 'react';
import type { ConfigRecord } from '../../../../contract/configs';
import type { EditConflict as ConflictingField } from '../../../../contract/problem';
import type { ValidationReport } from '../../../../contract/validation';

/** What the page shows of a config: the record without its text and report. */
export type SessionConfig = Omit<ConfigRecord, 'yaml' | 'validation'>;

export interface EditConflict {
  /** The config the refused edit was for. */
  readonly target: SessionConfig;
  /** The saved text the refused edit was made on. */
  readonly baseText: string;
  /** 409 edit_conflict: each field both edits changed. Absent: a 412 (If-Match). */
  readonly fields?: readonly ConflictingField[];
}

export interface EditSession {
  readonly config: SessionConfig;
  /** The saved text: what the edit is made on (its operations are against it). */
  readonly savedText: string;
  readonly report: ValidationReport;
  /** The editor holds edits that are not saved. */
  readonly dirty: boolean;
  readonly conflict: EditConflict | null;
}

export type EditSessionEvent =
  | { readonly type: 'edited'; readonly dirty: boolean }
  /** A save went through: the config as the server answered it is what the edit is on. */
  | { readonly type: 'saved'; readonly record: ConfigRecord }
  | { readonly type: 'conflict'; readonly conflict: EditConflict }
  | { readonly type: 'conflict-dismissed' }
  /** After a refused save: the newer version is now what the edit is made on. */
  | { readonly type: 'newer-loaded'; readonly record: ConfigRecord };

function configOf({ yaml: _yaml, validation: _validation, ...config }: ConfigRecord) {
  return config;
}

/** The session of a config just loaded. */
export function loaded(record: ConfigRecord): EditSession {
  return {
    config: configOf(record),
    savedText: record.yaml,
    report: record.validation,
    dirty: false,
    conflict: null,
  };
}

export function editSessionReducer(session: EditSession, event: EditSessionEvent): EditSession {
  switch (event.type) {
    case 'edited':
      return event.dirty === session.dirty ? session : { ...session, dirty: event.dirty };
    case 'saved':
      return { ...loaded(event.record), dirty: session.dirty };
    case 'conflict':
      return { ...session, conflict: event.conflict };
    case 'conflict-dismissed':
      return session.conflict === null ? session : { ...session, conflict: null };
    case 'newer-loaded':
      return { ...loaded(event.record), dirty: session.dirty };
  }
}

export function useEditSession(initial: ConfigRecord) {
  return useReducer(editSessionReducer, initial, loaded);
}
