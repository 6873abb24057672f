import { describe, expect, it } from 'vitest';
import type { ConfigRecord } from '../../../../contract/configs';
import type { ValidationReport } from '../../../../contract/validation';
import { editSessionReducer, loaded, type EditSession } from './edit-session';

const VALID: ValidationReport = { valid: true, error_count: 0, warning_count: 0, issues: [] };
const INVALID: ValidationReport = {
  valid: false,
  error_count: 1,
  warning_count: 0,
  issues: [{ code: 'schema.enum', message: 'bad', path: '/apps/0', line: 2, column: 3, length: 4 }],
};

const RECORD: ConfigRecord = {
  id: 'cfg_d',
  kind: 'draft',
  label: 'My draft',
  revision: 4,
  live: false,
  base_config_id: 'cfg_live',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  yaml: 'apps: []\n',
  validation: VALID,
};

function session(): EditSession {
  return loaded(RECORD);
}

describe('the edit session', () => {
  it('starts from the loaded config: its text is the saved text, nothing unsaved', () => {
    const start = session();
    expect(start.savedText).toBe('apps: []\n');
    expect(start.report).toBe(VALID);
    expect(start.config).not.toHaveProperty('yaml');
    expect(start.config).toMatchObject({ id: 'cfg_d', revision: 4 });
    expect(start).toMatchObject({ dirty: false, conflict: null });
  });

  it('follows the editor in and out of unsaved edits, unchanged when nothing changes', () => {
    const start = session();
    const edited = editSessionReducer(start, { type: 'edited', dirty: true });
    expect(edited.dirty).toBe(true);
    expect(editSessionReducer(edited, { type: 'edited', dirty: true })).toBe(edited);
    expect(editSessionReducer(edited, { type: 'edited', dirty: false }).dirty).toBe(false);
  });

  it('takes the saved config, text and report after a save', () => {
    const saved = editSessionReducer(session(), {
      type: 'saved',
      record: { ...RECORD, revision: 5, yaml: 'apps:\n  - id: x\n', validation: INVALID },
    });
    expect(saved.config.revision).toBe(5);
    expect(saved.config).not.toHaveProperty('yaml');
    expect(saved.savedText).toBe('apps:\n  - id: x\n');
    expect(saved.report).toBe(INVALID);
  });

  it('holds a refused save until it is dismissed', () => {
    const { yaml: _yaml, validation: _validation, ...target } = RECORD;
    const conflict = { target, baseText: RECORD.yaml };
    const refused = editSessionReducer(session(), { type: 'conflict', conflict });
    expect(refused.conflict).toBe(conflict);
    expect(editSessionReducer(refused, { type: 'conflict-dismissed' }).conflict).toBeNull();
  });

  it('makes the newer version the base of the edit and closes the conflict', () => {
    const { yaml: _yaml, validation: _validation, ...target } = RECORD;
    let state = editSessionReducer(session(), { type: 'edited', dirty: true });
    state = editSessionReducer(state, {
      type: 'conflict',
      conflict: { target, baseText: RECORD.yaml },
    });
    const newer: ConfigRecord = {
      ...RECORD,
      revision: 5,
      yaml: 'apps: [] # newer\n',
      validation: INVALID,
    };
    const next = editSessionReducer(state, { type: 'newer-loaded', record: newer });
    expect(next.conflict).toBeNull();
    expect(next.savedText).toBe(newer.yaml);
    expect(next.report).toBe(INVALID);
    expect(next.config.revision).toBe(5);
    // Whether the editor holds unsaved edits is the editor's to say.
    expect(next.dirty).toBe(true);
  });
});
