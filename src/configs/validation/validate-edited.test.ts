import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../contract/operations';
import { applyEdit, type AppliedEdit, type EditableConfig } from '../edit';
import { parseConfig } from '../parse';
import {
  appEditArb,
  commentedArb,
  operationArb,
  requestsArb,
  textArb,
} from '../testing/edit-arbitraries';
import { largeConfigText } from '../testing/large-config';
import { validateEdited } from './validate-edited';
import { validateParsedConfig } from './validate';

const NOW = new Date('2026-01-01T00:00:00.000Z');
const SOURCE = { type: 'draft', name: 'Draft' } as const;

/** Large configs with comments and a few A/B tests whose variants override settings. */
const largeTextArb = fc
  .integer({ min: 3, max: 12 })
  .chain((apps) => commentedArb(largeConfigText(apps * 10)))
  .filter((text) => parseConfig(text).syntaxIssues.length === 0);

/** Edits that make and mend issues: bad platforms, empty names, settings, ids, deletes. */
const issueEditArb = fc.oneof(
  appEditArb,
  fc
    .record({
      at: fc.integer({ min: 0, max: 120 }),
      id: fc.constantFrom('app-1', 'app-2', 'Bad id', 'app-50'),
    })
    .map(({ at, id }) => ({ set: [{ path: `/apps/${at}/id`, value: id }] })),
  fc
    .record({
      at: fc.integer({ min: 0, max: 120 }),
      enabled: fc.constantFrom(true, false, 'yes'),
      theme: fc.option(fc.constantFrom('dark', 1, true), { nil: null }),
    })
    .map(({ at, enabled, theme }) => ({
      update_app: [{ id: `app-${at}`, enabled, settings: { theme, extra: 1 } }],
    })),
  fc.integer({ min: 0, max: 120 }).map((at) => ({
    update_app: [{ id: `app-${at}`, name: '', platform: 'desktop' }],
  })),
  fc.integer({ min: 0, max: 120 }).map((at) => ({ unset: [{ path: `/apps/${at}/settings` }] })),
  fc.constantFrom(0, 100).map((at) => ({ start_ab_test: [{ id: `test-${at}` }] })),
) as fc.Arbitrary<Operation>;

/** A config parsed from `text` and validated, as an edit may start from. */
function validated(text: string): EditableConfig {
  const parsed = parseConfig(text);
  const { report, findings } = validateEdited(parsed, SOURCE);
  expect(report).toEqual(validateParsedConfig(parsed, SOURCE));
  return findings ? { parsed, findings } : { parsed };
}

/** Runs the edits, holding every report equal to a whole parse and validation's. */
function checkEdits(text: string, requests: readonly (readonly Operation[])[]) {
  let config = validated(text);
  let kept = 0;
  let edits = 0;
  for (const operations of requests) {
    const result = applyEdit(config, operations, { now: NOW, source: SOURCE });
    if (result.kind !== 'applied') {
      // A refused edit leaves its document out, as the service does.
      config = validated(config.parsed.text);
      continue;
    }
    edits += 1;
    expect(result.report).toEqual(validateParsedConfig(parseConfig(result.text), SOURCE));
    if (result.findingsKept > 0) kept += 1;
    config = result.edited;
  }
  return { kept, edits };
}

describe('validateEdited', () => {
  it('reports what a whole parse and validation report, over random configs and edits', () => {
    let kept = 0;
    let edits = 0;
    fc.assert(
      fc.property(textArb, requestsArb, (text, requests) => {
        const outcome = checkEdits(text, requests);
        kept += outcome.kept;
        edits += outcome.edits;
      }),
      { numRuns: 200 },
    );
    console.log(`validateEdited, random edits: ${kept} of ${edits} kept findings`);
    expect(kept).toBeGreaterThan(0);
  }, 120_000);

  it('reports the same on large configs whose edits make and mend issues, keeping findings', () => {
    let kept = 0;
    let edits = 0;
    const requests = fc.array(
      fc.array(fc.oneof({ arbitrary: issueEditArb, weight: 4 }, operationArb), {
        minLength: 1,
        maxLength: 2,
      }),
      { minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(largeTextArb, requests, (text, edited) => {
        const outcome = checkEdits(text, edited);
        kept += outcome.kept;
        edits += outcome.edits;
      }),
      { numRuns: 60 },
    );
    console.log(`validateEdited, large configs: ${kept} of ${edits} kept findings`);
    // Only edits the incremental parse cannot follow (first or last item, outside the
    // lists, two lists) validate every item again.
    expect(kept).toBeGreaterThan(edits / 3);
  }, 240_000);

  it('keeps the findings of every app but the edited one', () => {
    let config = validated(largeConfigText(300));
    let last: AppliedEdit | undefined;
    for (const platform of ['desktop', 'web', 'tv']) {
      const operations = [{ update_app: [{ id: 'app-150', platform }] }];
      const result = applyEdit(config, operations, { now: NOW, source: SOURCE });
      if (result.kind !== 'applied') throw new Error('the edit was refused');
      expect(result.report).toEqual(validateParsedConfig(parseConfig(result.text), SOURCE));
      config = result.edited;
      last = result;
    }
    // 300 apps and 3 tests, of which app-150 is checked again.
    expect(last?.findingsKept).toBe(302);
    expect(last?.report.issues.map((issue) => issue.path)).toEqual(['/apps/150/platform']);
  });

  it('checks every item again without the findings of the config before', () => {
    const parsed = parseConfig(largeConfigText(50)); // 50 apps and 1 test
    const { findings } = validateEdited(parsed, SOURCE);
    expect(validateEdited(parsed, SOURCE, findings).kept).toBe(51);
    expect(validateEdited(parsed, SOURCE).kept).toBe(0);
  });

  it('judges the metrics a test names by each edit\u2019s own context, never by kept findings', () => {
    let config = validated(largeConfigText(50));
    const setMetrics = [{ set: [{ path: '/ab_tests/0/metrics', value: ['revenue'] }] }];
    const first = applyEdit(config, setMetrics, {
      now: NOW,
      source: SOURCE,
      validation: { metricIds: [] },
    });
    if (first.kind !== 'applied') throw new Error('the edit was refused');
    expect(first.report.issues.map((issue) => issue.code)).toEqual(['ab_test.unknown_metric']);
    config = first.edited;
    // An edit elsewhere, once the account has the metric: the test's warning is gone.
    const rename = [{ update_app: [{ id: 'app-10', name: 'Renamed' }] }];
    const known = { metricIds: ['revenue'] };
    const second = applyEdit(config, rename, { now: NOW, source: SOURCE, validation: known });
    if (second.kind !== 'applied') throw new Error('the edit was refused');
    expect(second.findingsKept).toBeGreaterThan(0);
    expect(second.report.issues).toEqual([]);
    expect(second.report).toEqual(validateParsedConfig(parseConfig(second.text), SOURCE, known));
  });
});
