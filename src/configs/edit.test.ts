import { describe, expect, it } from 'vitest';
import type { Operation } from '../contract/operations';
import { applyEdit, type AppliedEdit, type EditableConfig } from './edit';
import { parseConfig, stringifyConfig } from './parse';
import { largeConfigText } from './testing/large-config';
import { validateParsedConfig } from './validation/validate';

const NOW = new Date('2026-01-01T00:00:00.000Z');
const OPTIONS = { now: NOW, source: { type: 'draft', name: 'Draft' } } as const;

function applied(config: EditableConfig, operations: readonly Operation[]): AppliedEdit {
  const result = applyEdit(config, operations, OPTIONS);
  if (result.kind !== 'applied') throw new Error(result.kind);
  return result;
}

const rename = (id: string, name: string): Operation[] => [{ update_app: [{ id, name }] }];

describe('applyEdit', () => {
  it('returns the edited text, its document, report, changes, paths and ranges', () => {
    const result = applied({ parsed: parseConfig(largeConfigText(20)) }, rename('app-7', ''));
    expect(result.text).toContain('  - id: app-7\n    name: ""\n');
    expect(stringifyConfig(result.document)).toBe(result.text);
    expect(result.report).toEqual(validateParsedConfig(parseConfig(result.text), OPTIONS.source));
    expect(result.report.issues.map((issue) => issue.path)).toEqual(['/apps/7/name']);
    expect(result.changes.items.size).toBe(1);
    expect(result.appliedPaths).toEqual(['/apps/7/name']);
    const line = result.text.split('\n').indexOf('    name: ""') + 1;
    expect(result.appliedRanges).toEqual([{ path: '/apps/7/name', line, column: 11, length: 2 }]);
    expect(result.edited.parsed.text).toBe(result.text);
  });

  it('answers the same whether or not the config carries what its last edit learned', () => {
    const text = largeConfigText(200);
    const first = applied({ parsed: parseConfig(text) }, rename('app-50', 'First'));
    expect(first.edited.written).toBeDefined();
    expect(first.edited.findings).toBeDefined();
    const carried = applied(first.edited, rename('app-120', 'Second'));
    const fresh = applied({ parsed: parseConfig(first.text) }, rename('app-120', 'Second'));
    expect(carried.text).toBe(fresh.text);
    expect(carried.report).toEqual(fresh.report);
    expect(carried.appliedRanges).toEqual(fresh.appliedRanges);
    // Only the carried config let validation take the unchanged items' findings again.
    expect(carried.findingsKept).toBeGreaterThan(190);
    expect(fresh.findingsKept).toBe(0);
  });

  it('says why an operation was refused, with a kind and no change kept', () => {
    const config = { parsed: parseConfig(largeConfigText(3)) };
    expect(applyEdit(config, rename('no-such-app', 'x'), OPTIONS)).toMatchObject({
      kind: 'refused',
      refusal: {
        kind: 'not_found',
        code: 'app.not_found',
        requestPath: '/operations/0/update_app/0',
      },
    });
    const taken = [{ create_app: [{ id: 'app-1', name: 'x', platform: 'web' }] }];
    expect(applyEdit({ parsed: parseConfig(largeConfigText(3)) }, taken, OPTIONS)).toMatchObject({
      kind: 'refused',
      refusal: { kind: 'conflict', code: 'app.id_taken' },
    });
    // Malformed on purpose: the contract refuses it first; the applier must too.
    const bad = [{ set: [{ path: '/apps/0/name' }] }] as unknown as Operation[];
    expect(applyEdit({ parsed: parseConfig(largeConfigText(3)) }, bad, OPTIONS)).toMatchObject({
      kind: 'refused',
      refusal: { kind: 'invalid_operation', code: 'operation.invalid_item' },
    });
    const unreadable = { parsed: parseConfig('apps: [\n') };
    expect(applyEdit(unreadable, rename('a', 'b'), OPTIONS)).toMatchObject({
      kind: 'refused',
      refusal: { kind: 'not_allowed_in_state', code: 'config.unreadable' },
    });
  });

  it('stops before parsing a text the caller does not take', () => {
    const seen: string[] = [];
    const result = applyEdit({ parsed: parseConfig(largeConfigText(3)) }, rename('app-1', 'x'), {
      ...OPTIONS,
      textFits: (text) => {
        seen.push(text);
        return false;
      },
    });
    expect(result).toEqual({ kind: 'too_large' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('name: x\n');
  });
});
