import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { configEditRequestSchema } from '../contract/config-edit';
import type { Operation } from '../contract/operations';
import { diffConfigData, editorTextToOperations } from './editor-operations';
import { applyOperations } from './operations/apply-operations';
import { stringifyConfig } from './parse';
import { applyEdits, configArb, editsArb, type Data } from './testing/config-arbitraries';

const NOW = new Date('2026-11-22T10:00:00.000Z');

/** Applies operations as the service would: sent as JSON, to the parsed base text. */
function applyToText(baseText: string, operations: Operation[]): { text: string; data: unknown } {
  const wire = JSON.parse(JSON.stringify(operations)) as Operation[];
  const document = parseDocument(baseText);
  const result = applyOperations(document, wire, { now: NOW });
  if (!result.ok) throw new Error(`refused: ${result.refusal.message}`);
  const text = stringifyConfig(document);
  return { text, data: parseDocument(text).toJS() ?? null };
}

/**
 * The one refusal a faithful edit may meet: deleting an app while a test that stays running
 * still targets it (the service answers 409, as it should).
 */
function deletesAppOfRunningTest(base: Data, edited: Data): boolean {
  const editedApps = new Set(((edited.apps as Data[] | undefined) ?? []).map((app) => app.id));
  const deleted = ((base.apps as Data[] | undefined) ?? []).filter(
    (app) => !editedApps.has(app.id),
  );
  const runningApps = new Set(
    [
      ...((base.ab_tests as Data[] | undefined) ?? []),
      ...((edited.ab_tests as Data[] | undefined) ?? []),
    ]
      .filter((test) => test.status === 'running')
      .map((test) => test.app),
  );
  return deleted.some((app) => runningApps.has(app.id));
}

function expectReproduced(
  base: Data,
  edited: Data,
  baseText: string,
  operations: Operation[],
): string | undefined {
  try {
    const { text, data } = applyToText(baseText, operations);
    expect(data).toEqual(parseDocument(stringify(edited)).toJS() ?? null);
    return text;
  } catch (error) {
    if (!String(error).includes('cannot be deleted while the A/B test')) throw error;
    expect(deletesAppOfRunningTest(base, edited)).toBe(true);
    return undefined;
  }
}

const BASE = `# Apps this account provisions.
apps:
  # the web shop
  - id: checkout # main app
    name: Checkout
    platform: web
    settings:
      theme: dark # default theme
      max_items: 20
  - id: ios
    name: iOS
    platform: ios
ab_tests:
  - id: bigger-button
    app: checkout
    status: draft
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
`;

function operationsFor(edited: string): Operation[] {
  const result = editorTextToOperations(BASE, edited);
  if (result.status !== 'changed') throw new Error(`expected a change, got ${result.status}`);
  return result.operations;
}

describe('editor text to operations', () => {
  it('gives no operation for comment-only and formatting-only changes', () => {
    const recommented = BASE.replace('# main app', '# the main app').replace(
      '  # the web shop\n',
      '',
    );
    expect(editorTextToOperations(BASE, recommented)).toEqual({ status: 'unchanged' });
    const reformatted = BASE.replace('theme: dark', 'theme: "dark"').replace(
      '  - id: ios\n    name: iOS\n    platform: ios\n',
      '  - {id: ios, name: iOS, platform: ios}\n',
    );
    expect(editorTextToOperations(BASE, reformatted)).toEqual({ status: 'unchanged' });
  });

  it('never posts text that does not parse: it returns the syntax issues', () => {
    const result = editorTextToOperations(BASE, `${BASE}  - id: [unclosed\n`);
    expect(result.status).toBe('syntax_error');
    if (result.status !== 'syntax_error') return;
    expect(result.issues.length).toBeGreaterThan(0);
    expect(result.issues.every((issue) => issue.code === 'yaml.syntax')).toBe(true);
  });

  it('matches apps by id: a new app is create_app with the item as typed', () => {
    const edited = `${BASE.split('ab_tests:')[0]}  - id: android\n    name: Android\n    platform: android\nab_tests:${BASE.split('ab_tests:')[1]}`;
    expect(operationsFor(edited)).toEqual([
      { create_app: [{ id: 'android', name: 'Android', platform: 'android' }] },
    ]);
  });

  it('gives update_app with only the changed fields, and null for a removed setting', () => {
    const edited = BASE.replace('name: Checkout', 'name: Checkout EU').replace(
      '      max_items: 20\n',
      '      compact: true\n',
    );
    expect(operationsFor(edited)).toEqual([
      {
        update_app: [
          { id: 'checkout', name: 'Checkout EU', settings: { max_items: null, compact: true } },
        ],
      },
    ]);
  });

  it('gives delete_app for an app that is gone', () => {
    const edited = BASE.replace('  - id: ios\n    name: iOS\n    platform: ios\n', '');
    expect(operationsFor(edited)).toEqual([{ delete_app: [{ id: 'ios' }] }]);
  });

  it('gives unset for a removed field and set for a setting whose value becomes null', () => {
    const edited = BASE.replace(
      '    platform: ios\n',
      '    platform: ios\n    enabled: false\n',
    ).replace('      theme: dark # default theme\n', '      theme:\n');
    const removed = BASE.replace(
      '    settings:\n      theme: dark # default theme\n      max_items: 20\n',
      '',
    );
    expect(operationsFor(edited)).toEqual([
      { set: [{ path: '/apps/0/settings/theme', value: null }] },
      { update_app: [{ id: 'ios', enabled: false }] },
    ]);
    expect(operationsFor(removed)).toEqual([{ unset: [{ path: '/apps/0/settings' }] }]);
  });

  it('gives create_ab_test for a new test, and sets a status other than draft after it', () => {
    const test = `  - id: dark-mode\n    app: ios\n    status: running\n    variants:\n      - id: a\n        weight: 100\n`;
    expect(operationsFor(BASE + test)).toEqual([
      {
        create_ab_test: [{ id: 'dark-mode', app: 'ios', variants: [{ id: 'a', weight: 100 }] }],
      },
      { set: [{ path: '/ab_tests/1/status', value: 'running' }] },
    ]);
  });

  it('edits an existing test with set at the smallest path, and removes one with unset', () => {
    expect(
      operationsFor(BASE.replace('weight: 50\n      - id: big', 'weight: 40\n      - id: big')),
    ).toEqual([{ set: [{ path: '/ab_tests/0/variants/0/weight', value: 40 }] }]);
    expect(operationsFor(BASE.replace(/ab_tests:[^]*$/, 'ab_tests: []\n'))).toEqual([
      { unset: [{ path: '/ab_tests/0' }] },
    ]);
  });

  it('sets the whole list when the apps are reordered (no typed action moves an app)', () => {
    const data = parseDocument(BASE).toJS() as Data;
    const apps = [...(data.apps as Data[])].reverse();
    expect(diffConfigData(data, { ...data, apps })).toEqual([
      { set: [{ path: '/apps', value: apps }] },
    ]);
  });

  it('escapes keys in pointers', () => {
    expect(diffConfigData({}, { 'a/b': 1, 'm~n': 2 })).toEqual([
      {
        set: [
          { path: '/a~1b', value: 1 },
          { path: '/m~0n', value: 2 },
        ],
      },
    ]);
  });

  it('keeps the comments of untouched parts when the operations are applied', () => {
    const edited = BASE.replace('name: iOS', 'name: iOS app');
    const { text } = applyToText(BASE, operationsFor(edited));
    for (const comment of [
      '# Apps this account provisions.',
      '# the web shop',
      '# main app',
      '# default theme',
    ]) {
      expect(text).toContain(comment);
    }
    expect(text).toContain('name: iOS app');
  });
});

describe('editor text to operations: properties', () => {
  it('applying the operations built from the edited text reproduces the edited data exactly', () => {
    fc.assert(
      fc.property(configArb, editsArb, (base, edits) => {
        const edited = applyEdits(base, edits);
        const baseText = stringify(base);
        const result = editorTextToOperations(baseText, stringify(edited));
        if (result.status === 'unchanged') {
          expect(parseDocument(stringify(edited)).toJS()).toEqual(parseDocument(baseText).toJS());
          return;
        }
        expect(result.status).toBe('changed');
        if (result.status !== 'changed') return;
        // What the console posts is a request the contract accepts.
        expect(
          configEditRequestSchema.safeParse({ operations: result.operations, summary: 'edit' })
            .success,
        ).toBe(true);
        expectReproduced(base, edited, baseText, result.operations);
      }),
      { numRuns: 300 },
    );
  });

  it('also holds between two unrelated configs', () => {
    fc.assert(
      fc.property(configArb, configArb, (base, edited) => {
        expectReproduced(base, edited, stringify(base), diffConfigData(base, edited));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the comment of every app the edit does not touch', () => {
    fc.assert(
      fc.property(configArb, editsArb, (base, edits) => {
        const apps = (base.apps as Data[] | undefined) ?? [];
        fc.pre(apps.length > 0);
        const document = parseDocument(stringify(base));
        const seq = document.get('apps', true) as { items: { commentBefore?: string }[] };
        apps.forEach((app, index) => {
          (seq.items[index] as { commentBefore?: string }).commentBefore =
            ` keep ${String(app.id)}`;
        });
        const baseText = document.toString();
        const edited = applyEdits(base, edits);
        const result = editorTextToOperations(baseText, stringify(edited));
        if (result.status !== 'changed') return;
        const touchesWholeList = result.operations.some((op) =>
          'set' in op ? op.set.some((item) => item.path === '/apps' || item.path === '') : false,
        );
        fc.pre(!touchesWholeList);
        const text = expectReproduced(base, edited, baseText, result.operations);
        if (text === undefined) return;
        const editedIds = new Set(((edited.apps as Data[] | undefined) ?? []).map((app) => app.id));
        for (const app of apps) {
          if (editedIds.has(app.id)) expect(text).toContain(`# keep ${String(app.id)}`);
        }
      }),
      { numRuns: 200 },
    );
  });
});
