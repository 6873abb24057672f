import { describe, expect, it } from 'vitest';
import type { ValidationIssue } from '../../contract/validation';
import { validateConfigText } from './validate';

/** The one issue with `code` (fails when there is none or more than one). */
function only(text: string, code: string): ValidationIssue {
  const found = validateConfigText(text).issues.filter((issue) => issue.code === code);
  expect(found, `issues with code ${code}`).toHaveLength(1);
  return found[0] as ValidationIssue;
}

const APP = `apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      theme: dark
`;

const TEST = `ab_tests:
  - id: big-button
    app: checkout
    status: draft
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
        settings:
          theme: light
`;

describe('a valid config', () => {
  it('has no issues, counts of zero, and the text and source echoed', () => {
    const report = validateConfigText(APP + TEST, { type: 'draft', name: 'Spring sale' });
    expect(report).toEqual({
      valid: true,
      error_count: 0,
      warning_count: 0,
      issues: [],
      yaml: APP + TEST,
      source: { type: 'draft', name: 'Spring sale' },
    });
  });

  it('may be empty: an empty document, or comments only', () => {
    expect(validateConfigText('').valid).toBe(true);
    expect(validateConfigText('# nothing yet\n').valid).toBe(true);
    expect(validateConfigText('apps: []\nab_tests: []\n').valid).toBe(true);
  });
});

describe('each rule, with its exact position', () => {
  it('yaml.syntax: positioned from the parser', () => {
    const text = 'apps:\n  - id: checkout\n    name: "Checkout\n';
    expect(only(text, 'yaml.syntax')).toMatchObject({
      severity: 'error',
      path: '',
      line: 4,
      column: 1,
      length: 0,
    });
    const tabbed = 'apps:\n  - id: a\n\tname: b\n';
    expect(only(tabbed, 'yaml.syntax')).toMatchObject({ line: 3, column: 1 });
  });

  it('yaml.syntax: a second document is refused', () => {
    const issue = only('apps: []\n---\nab_tests: []\n', 'yaml.syntax');
    expect(issue).toMatchObject({ line: 2, column: 1 });
  });

  it('yaml.duplicate_key: on the repeated key', () => {
    const text = 'apps:\n  - id: checkout\n    name: A\n    platform: web\n    name: B\n';
    expect(only(text, 'yaml.duplicate_key')).toEqual({
      code: 'yaml.duplicate_key',
      severity: 'error',
      message: 'The key "name" appears twice in this mapping',
      path: '/apps/0/name',
      line: 5,
      column: 5,
      length: 4,
    });
  });

  it('schema.type: on the value', () => {
    expect(only('apps: 5\n', 'schema.type')).toMatchObject({
      severity: 'error',
      path: '/apps',
      line: 1,
      column: 7,
      length: 1,
    });
    const enabled = APP.replace('platform: web', 'platform: web\n    enabled: "yes"');
    expect(only(enabled, 'schema.type')).toMatchObject({
      path: '/apps/0/enabled',
      line: 5,
      column: 14,
      length: 5,
    });
  });

  it('schema.type: on the key when the value is empty', () => {
    const text = 'apps:\n  - id: checkout\n    name:\n    platform: web\n';
    expect(only(text, 'schema.type')).toMatchObject({
      path: '/apps/0/name',
      line: 3,
      column: 5,
      length: 4,
    });
  });

  it('schema.type: a document that is not a mapping', () => {
    expect(only('- a\n- b\n', 'schema.type')).toMatchObject({
      path: '',
      line: 1,
      column: 1,
      length: 8,
    });
  });

  it('schema.required: on the item first key, with the missing field in the path', () => {
    const text = 'apps:\n  - id: checkout\n    platform: web\n';
    expect(only(text, 'schema.required')).toEqual({
      code: 'schema.required',
      severity: 'error',
      message: 'apps[0] is missing the required field "name"',
      path: '/apps/0/name',
      line: 2,
      column: 5,
      length: 2,
    });
  });

  it('schema.required: an empty item is marked where it stands', () => {
    const issues = validateConfigText('apps:\n  - {}\n').issues;
    expect(issues.map((issue) => issue.path)).toEqual([
      '/apps/0/id',
      '/apps/0/name',
      '/apps/0/platform',
    ]);
    expect(issues[0]).toMatchObject({ line: 2, column: 5, length: 2 });
  });

  it('schema.enum: on the value', () => {
    expect(only(APP.replace('platform: web', 'platform: desktop'), 'schema.enum')).toMatchObject({
      severity: 'error',
      path: '/apps/0/platform',
      message: 'apps[0].platform must be one of web, ios, android, server; got "desktop"',
      line: 4,
      column: 15,
      length: 7,
    });
    expect(
      only(APP + TEST.replace('status: draft', 'status: paused'), 'schema.enum'),
    ).toMatchObject({
      path: '/ab_tests/0/status',
      line: 10,
      column: 13,
      length: 6,
    });
  });

  it('schema.pattern: an id, a settings key, a length', () => {
    expect(only(APP.replace('id: checkout', 'id: Checkout'), 'schema.pattern')).toMatchObject({
      path: '/apps/0/id',
      line: 2,
      column: 9,
      length: 8,
    });
    expect(only(APP.replace('theme: dark', 'Theme: dark'), 'schema.pattern')).toMatchObject({
      path: '/apps/0/settings/Theme',
      line: 6,
      column: 7,
      length: 5,
    });
    expect(
      only(APP.replace('name: Checkout', `name: ${'x'.repeat(101)}`), 'schema.pattern'),
    ).toMatchObject({
      path: '/apps/0/name',
      message: 'apps[0].name must be at most 100 characters; got 101',
      line: 3,
      column: 11,
      length: 101,
    });
    expect(only(APP.replace('name: Checkout', 'name: ""'), 'schema.pattern').message).toBe(
      'apps[0].name must not be empty',
    );
    const badDate = APP + TEST.replace('status: draft', 'status: draft\n    started_at: tomorrow');
    expect(only(badDate, 'schema.pattern')).toMatchObject({
      path: '/ab_tests/0/started_at',
      line: 11,
      column: 17,
    });
  });

  it('schema.range: a weight outside 0..100 (and its sum)', () => {
    const text = APP + TEST.replace('weight: 50\n      - id: big', 'weight: 150\n      - id: big');
    expect(only(text, 'schema.range')).toMatchObject({
      path: '/ab_tests/0/variants/0/weight',
      line: 13,
      column: 17,
      length: 3,
    });
  });

  it('schema.unknown_key: a warning on the key; the config stays valid', () => {
    const report = validateConfigText(`${APP}colour: red\n`);
    expect(report).toMatchObject({ valid: true, error_count: 0, warning_count: 1 });
    expect(only(`${APP}colour: red\n`, 'schema.unknown_key')).toMatchObject({
      severity: 'warning',
      path: '/colour',
      line: 7,
      column: 1,
      length: 6,
    });
  });

  it('app.duplicate_id: on the second id', () => {
    const text = `${APP}  - id: checkout\n    name: Again\n    platform: ios\n`;
    expect(only(text, 'app.duplicate_id')).toMatchObject({
      severity: 'error',
      path: '/apps/1/id',
      line: 7,
      column: 9,
      length: 8,
    });
  });

  it('ab_test.duplicate_id: on the second id', () => {
    const second = TEST.replace('ab_tests:\n', '');
    expect(only(APP + TEST + second, 'ab_test.duplicate_id')).toMatchObject({
      path: '/ab_tests/1/id',
      line: 18,
      column: 9,
      length: 10,
    });
  });

  it('ab_test.unknown_app: on the app value', () => {
    expect(
      only(APP + TEST.replace('app: checkout', 'app: shop'), 'ab_test.unknown_app'),
    ).toMatchObject({
      path: '/ab_tests/0/app',
      line: 9,
      column: 10,
      length: 4,
    });
  });

  it('ab_test.variant_count: fewer than 2 or more than 10, on the variants key', () => {
    const one = APP + TEST.replace(/ {6}- id: big\n[^]*$/, '').replace('weight: 50', 'weight: 100');
    expect(only(one, 'ab_test.variant_count')).toMatchObject({
      path: '/ab_tests/0/variants',
      line: 11,
      column: 5,
      length: 8,
    });
    const variants = Array.from(
      { length: 11 },
      (_, i) => `      - id: v${i}\n        weight: ${i === 0 ? 100 : 0}\n`,
    ).join('');
    const eleven = `${APP}ab_tests:\n  - id: many\n    app: checkout\n    status: draft\n    variants:\n${variants}`;
    expect(only(eleven, 'ab_test.variant_count').message).toContain('got 11');
  });

  it('ab_test.duplicate_variant: on the second variant id', () => {
    expect(
      only(APP + TEST.replace('id: big\n', 'id: control\n'), 'ab_test.duplicate_variant'),
    ).toMatchObject({
      path: '/ab_tests/0/variants/1/id',
      line: 14,
      column: 13,
      length: 7,
    });
  });

  it('ab_test.weights_sum: on the variants key', () => {
    const text = APP + TEST.replace('weight: 50\n      - id: big', 'weight: 40\n      - id: big');
    expect(only(text, 'ab_test.weights_sum')).toEqual({
      code: 'ab_test.weights_sum',
      severity: 'error',
      message: 'The weights of A/B test "big-button" sum to 90; they must sum to 100',
      path: '/ab_tests/0/variants',
      line: 11,
      column: 5,
      length: 8,
    });
  });

  it('ab_test.winner: missing on a promoted test, present on another, naming no variant', () => {
    const promoted = APP + TEST.replace('status: draft', 'status: promoted');
    expect(only(promoted, 'ab_test.winner')).toMatchObject({
      path: '/ab_tests/0/winner',
      line: 10,
      column: 13,
      length: 8,
    });
    const draftWithWinner = APP + TEST.replace('status: draft', 'status: draft\n    winner: big');
    expect(only(draftWithWinner, 'ab_test.winner')).toMatchObject({
      line: 11,
      column: 5,
      length: 6,
    });
    const noSuchVariant = APP + TEST.replace('status: draft', 'status: promoted\n    winner: huge');
    expect(only(noSuchVariant, 'ab_test.winner')).toMatchObject({
      line: 11,
      column: 13,
      length: 4,
    });
  });

  it('ab_test.unknown_setting: a warning on the overridden key', () => {
    const text = APP + TEST.replace('theme: light', 'font: large');
    expect(only(text, 'ab_test.unknown_setting')).toMatchObject({
      severity: 'warning',
      path: '/ab_tests/0/variants/1/settings/font',
      line: 17,
      column: 11,
      length: 4,
    });
  });

  it('app.disabled_in_test: a warning when a running test targets a disabled app', () => {
    const text =
      APP.replace('platform: web', 'platform: web\n    enabled: false') +
      TEST.replace('status: draft', 'status: running');
    expect(only(text, 'app.disabled_in_test')).toMatchObject({
      severity: 'warning',
      path: '/ab_tests/0/app',
      line: 10,
      column: 10,
      length: 8,
    });
    const draft = APP.replace('platform: web', 'platform: web\n    enabled: false') + TEST;
    expect(validateConfigText(draft).issues).toEqual([]);
  });
});

describe('the metrics an A/B test names', () => {
  const named = (lists: string) => APP + TEST.replace('status: draft\n', `status: draft\n${lists}`);
  const goals = '    metrics: [checkout-rate, revenue]\n    guardrails:\n      - errors\n';
  const known = { metricIds: ['checkout-rate', 'revenue', 'errors'] };

  it('are two optional lists of metric ids: valid when every id is the account\u2019s', () => {
    expect(validateConfigText(named(goals)).issues).toEqual([]);
    expect(validateConfigText(named(goals), undefined, known).issues).toEqual([]);
  });

  it('ab_test.unknown_metric: a warning on the id, only when the account\u2019s ids are given', () => {
    const context = { metricIds: ['checkout-rate'] };
    const report = validateConfigText(named(goals), { type: 'draft', name: 'd' }, context);
    expect(report.valid).toBe(true);
    expect(report.warning_count).toBe(2);
    expect(report.issues).toEqual([
      {
        code: 'ab_test.unknown_metric',
        severity: 'warning',
        message:
          'A/B test "big-button" names the metric "revenue", which is not one of this account\'s metrics',
        path: '/ab_tests/0/metrics/1',
        line: 11,
        column: 30,
        length: 7,
      },
      {
        code: 'ab_test.unknown_metric',
        severity: 'warning',
        message:
          'A/B test "big-button" names the metric "errors", which is not one of this account\'s metrics',
        path: '/ab_tests/0/guardrails/0',
        line: 13,
        column: 9,
        length: 6,
      },
    ]);
    // No context (the console, the schema): the rule is skipped; an empty one knows no metric.
    expect(validateConfigText(named(goals)).issues).toEqual([]);
    expect(validateConfigText(named(goals), undefined, { metricIds: [] }).warning_count).toBe(3);
  });

  it('ab_test.duplicate_metric: on the second naming, within a list or across the two', () => {
    const twice = named('    metrics: [revenue, revenue]\n');
    expect(only(twice, 'ab_test.duplicate_metric')).toMatchObject({
      severity: 'error',
      path: '/ab_tests/0/metrics/1',
      line: 11,
      column: 24,
      length: 7,
    });
    const both = named('    metrics: [revenue]\n    guardrails: [errors, revenue]\n');
    expect(only(both, 'ab_test.duplicate_metric')).toMatchObject({
      path: '/ab_tests/0/guardrails/1',
      line: 12,
      column: 26,
      length: 7,
      message:
        'A/B test "big-button" names the metric "revenue" as a guardrail, and it is already one of its goals',
    });
    // Named twice, it is reported once as unknown.
    const unknown = validateConfigText(twice, undefined, { metricIds: [] }).issues;
    expect(unknown.filter((issue) => issue.code === 'ab_test.unknown_metric')).toHaveLength(1);
  });

  it('ab_test.metric_count: more than 10 in a list, on its key', () => {
    const ids = Array.from({ length: 11 }, (_, i) => `m${i}`).join(', ');
    expect(only(named(`    guardrails: [${ids}]\n`), 'ab_test.metric_count')).toMatchObject({
      severity: 'error',
      path: '/ab_tests/0/guardrails',
      line: 11,
      column: 5,
      length: 10,
    });
    const ten = Array.from({ length: 10 }, (_, i) => `m${i}`).join(', ');
    expect(validateConfigText(named(`    metrics: [${ten}]\n`)).issues).toEqual([]);
  });

  it('schema rules: a list of metric ids, each of the id pattern', () => {
    expect(only(named('    metrics: revenue\n'), 'schema.type')).toMatchObject({
      path: '/ab_tests/0/metrics',
      line: 11,
      column: 14,
    });
    const bad = named('    metrics: [Revenue, 7]\n');
    const report = validateConfigText(bad, undefined, { metricIds: [] });
    expect(report.issues.map(({ code, path }) => [code, path])).toEqual([
      ['schema.pattern', '/ab_tests/0/metrics/0'],
      ['schema.type', '/ab_tests/0/metrics/1'],
    ]);
  });
});

describe('positions', () => {
  it('count columns and lengths in UTF-16 code units: an emoji before the error counts 2', () => {
    const text = 'apps:\n  - { name: "🚀 go", id: rocket, platform: desktop }\n';
    // '  - { name: "🚀 go", id: rocket, platform: ' is 43 code units (🚀 is 2 of them; 42
    // code points), so "desktop" starts at column 44.
    expect(only(text, 'schema.enum')).toMatchObject({ line: 2, column: 44, length: 7 });
    const name = 'apps:\n  - id: a\n    name: "🚀🚀"\n    platform: web\n    colour: 🚀\n';
    expect(only(name, 'schema.unknown_key')).toMatchObject({ line: 5, column: 5, length: 6 });
  });

  it('handle CRLF input: same positions, and the report text has \\n line ends', () => {
    const lf = APP.replace('platform: web', 'platform: desktop');
    const crlf = lf.replaceAll('\n', '\r\n');
    const report = validateConfigText(crlf);
    expect(report.yaml).toBe(lf);
    expect(report.issues).toEqual(validateConfigText(lf).issues);
    expect(report.issues[0]).toMatchObject({ line: 4, column: 15, length: 7 });
  });

  it('let a length cross line ends', () => {
    const text = 'apps:\n  - id: a\n    name: A\n    platform: web\n    settings: [1,\n      2]\n';
    expect(only(text, 'schema.type')).toMatchObject({ line: 5, column: 15, length: 12 });
  });
});

describe('the report', () => {
  const messy = `${APP.replace('platform: web', 'platform: desktop\n    colour: red')}${TEST.replace('app: checkout', 'app: shop').replace('weight: 50\n', 'weight: 10\n')}`;

  it('sorts issues by position and counts errors and warnings', () => {
    const report = validateConfigText(messy);
    const positions = report.issues.map((issue) => [issue.line, issue.column]);
    expect(positions).toEqual(
      [...positions].sort(
        (a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number),
      ),
    );
    expect(report.issues.map((issue) => issue.code)).toEqual([
      'schema.enum',
      'schema.unknown_key',
      'ab_test.unknown_app',
      'ab_test.weights_sum',
    ]);
    expect(report).toMatchObject({ valid: false, error_count: 3, warning_count: 1 });
  });

  it('has at most one issue per code and path', () => {
    const text = 'apps:\n  - id: a\n    name: A\n    name: B\n    name: C\n    platform: web\n';
    expect(only(text, 'yaml.duplicate_key')).toMatchObject({ line: 4 });
  });

  it('follows aliases without expanding a billion laughs', () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      laughs.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const report = validateConfigText(`${laughs.join('\n')}\n`);
    expect(report.warning_count).toBe(10);
  });

  it('survives absurd nesting', () => {
    const report = validateConfigText(`apps: ${'['.repeat(20_000)}`);
    expect(report.valid).toBe(false);
    expect(report.issues[0]?.code).toBe('yaml.too_deep');
  });
});
