import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfigContents } from '../../../../configs';
import type { AuthStatus } from '../../../../contract/auth-status';
import { ADMIN_STATUS } from '../../../testing/test-utils';
import { abTestItemLines, abTestStepLenses } from './ab-test-lenses';

const TEXT = `# Tests first, apps after.
ab_tests:
  # A comment between items.
  - id: bigger-button
    app: checkout
    status: running
    description: |
      - id: not-an-item
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50

  -
    id: "dark-mode"
    app: checkout
    status: draft
    variants:
      - id: control
        weight: 50
      - id: dark
        weight: 50
  - id: old-test # ended long ago
    app: checkout
    status: ended
    variants:
      - id: a
        weight: 50
      - id: b
        weight: 50
apps:
  - id: checkout
    name: Checkout
    platform: web
`;

function contentsOf(text: string) {
  return readConfigContents(parse(text));
}

const PUBLISHER: AuthStatus = ADMIN_STATUS;
const WRITER: AuthStatus = {
  ...ADMIN_STATUS,
  role: 'editor',
  permissions: ['config:read', 'config:write'],
};

/** "line: Verb Verb" per lens line, for reading the expectations at a glance. */
function linesOf(lenses: ReturnType<typeof abTestStepLenses>): string[] {
  const byLine = new Map<number, string[]>();
  for (const { lens } of lenses)
    byLine.set(lens.line, [...(byLine.get(lens.line) ?? []), lens.title]);
  return [...byLine].map(([line, titles]) => `${line}: ${titles.join(' ')}`);
}

describe('abTestItemLines', () => {
  it('finds each item of ab_tests at its dash, with the id at its own level', () => {
    expect(abTestItemLines(TEXT)).toEqual([
      { line: 4, id: 'bigger-button' },
      { line: 15, id: 'dark-mode' },
      { line: 24, id: 'old-test' },
    ]);
  });

  it('reads a list at the left margin, and ends it at the next key', () => {
    expect(abTestItemLines('ab_tests:\n- id: a\n  status: draft\n- id: b\napps: []\n')).toEqual([
      { line: 2, id: 'a' },
      { line: 4, id: 'b' },
    ]);
  });

  it('has no items for a flow list or no list', () => {
    expect(abTestItemLines('ab_tests: [{id: a}]\n')).toBeNull();
    expect(abTestItemLines('apps: []\n')).toBeNull();
  });
});

describe('abTestStepLenses', () => {
  it('offers above each test the steps its status allows', () => {
    const lenses = abTestStepLenses(TEXT, contentsOf(TEXT), PUBLISHER);
    expect(linesOf(lenses)).toEqual([
      '4: Edit End Promote',
      '15: Edit Start Delete',
      '24: Promote Delete',
    ]);
    const start = lenses.find(({ lens }) => lens.title === 'Start');
    expect(start?.test.id).toBe('dark-mode');
    expect(start?.step.action).toBe('start_ab_test');
    expect(start?.lens.tooltip).toBe('Start the A/B test dark-mode');
    expect(new Set(lenses.map(({ lens }) => lens.id)).size).toBe(lenses.length);
  });

  it('offers nothing to a key without config:publish', () => {
    expect(abTestStepLenses(TEXT, contentsOf(TEXT), WRITER)).toEqual([]);
  });

  it('offers nothing while the contents are unknown (the text does not parse)', () => {
    expect(abTestStepLenses(TEXT, null, PUBLISHER)).toEqual([]);
  });

  it('leaves out a test whose item in the text names another test', () => {
    // The contents of one text and the lines of another (a text changed since it was read).
    const swapped = TEXT.replace('id: bigger-button', 'id: renamed');
    expect(linesOf(abTestStepLenses(swapped, contentsOf(TEXT), PUBLISHER))).toEqual([
      '15: Edit Start Delete',
      '24: Promote Delete',
    ]);
  });
});
