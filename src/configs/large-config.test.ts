/**
 * A 10,000-app config goes through every step: parse, validate, apply, stringify, diff.
 * Sizes and results only; what each step costs is measured by `npm run bench:config`.
 */
import { describe, expect, it } from 'vitest';
import { editorTextToOperations } from './editor-operations';
import { applyOperations } from './operations/apply-operations';
import { parseConfig, stringifyConfig } from './parse';
import { largeConfigText } from './testing/large-config';
import { validateParsedConfig } from './validation/validate';

describe('a 10,000-app config', () => {
  const text = largeConfigText(10_000);

  it('is about 1.7 MB and comfortably under the 4 MiB config limit', () => {
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text.length).toBeLessThan(4 * 1024 * 1024);
  });

  it('parses, validates, takes an operation and writes back with only that change', () => {
    const parsed = parseConfig(text);
    const report = validateParsedConfig(parsed);
    expect(report.issues).toEqual([]);

    const result = applyOperations(parsed.document, [
      { update_app: [{ id: 'app-9999', name: 'The last app' }] },
      { create_app: [{ id: 'app-new', name: 'New', platform: 'web' }] },
    ]);
    expect(result).toEqual({ ok: true, appliedPaths: ['/apps/9999/name', '/apps/10000'] });
    const written = stringifyConfig(parsed.document);
    expect(written).toBe(
      text
        .replace('name: App number 9999\n', 'name: The last app\n')
        .replace('ab_tests:\n', '  - id: app-new\n    name: New\n    platform: web\nab_tests:\n'),
    );
  }, 60_000);

  it('takes 10,000 set items aimed at one mapping, and 10,000 unsets of them', () => {
    const parsed = parseConfig('flags: {}\n');
    const keys = Array.from({ length: 10_000 }, (_, i) => `flag_${i}`);
    const set = applyOperations(parsed.document, [
      { set: keys.map((key, i) => ({ path: `/flags/${key}`, value: i })) },
    ]);
    expect(set.ok && set.appliedPaths.length).toBe(10_000);
    const flags = (parsed.document.toJS() as { flags: Record<string, number> }).flags;
    expect(Object.keys(flags)).toHaveLength(10_000);
    expect(flags.flag_9999).toBe(9_999);
    const unset = applyOperations(parsed.document, [
      { unset: keys.map((key) => ({ path: `/flags/${key}` })) },
    ]);
    expect(unset.ok).toBe(true);
    expect(parsed.document.toJS()).toEqual({ flags: {} });
  }, 60_000);

  it('turns an edit of one app into one operation', () => {
    const edited = text.replace('name: App number 5000\n', 'name: Halfway\n');
    expect(editorTextToOperations(text, edited)).toEqual({
      status: 'changed',
      operations: [{ update_app: [{ id: 'app-5000', name: 'Halfway' }] }],
    });
  }, 60_000);
});
