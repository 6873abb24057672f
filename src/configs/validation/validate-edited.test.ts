import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../contract/operations';
import { editBaseOf, parseEdited } from '../incremental-parse';
import { writeEdited } from '../incremental-stringify';
import { applyOperations } from '../operations/apply-operations';
import { EditChanges } from '../operations/edit-changes';
import { parseConfig, type ParsedConfig } from '../parse';
import {
  appEditArb,
  commentedArb,
  operationArb,
  requestsArb,
  textArb,
} from '../testing/edit-arbitraries';
import { largeConfigText } from '../testing/large-config';
import { findingsKept, validateEdited } from './validate-edited';
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

/** One edit as the service makes it; undefined when refused. */
function edit(parsed: ParsedConfig, operations: readonly Operation[]) {
  const base = editBaseOf(parsed);
  const changes = new EditChanges();
  const applied = applyOperations(parsed.document, operations, { now: NOW, changes });
  if (!applied.ok) return undefined;
  const yaml = writeEdited(base, parsed.document, changes);
  return parseEdited(base, parsed.document, yaml, changes);
}

/** Runs the edits, holding every report equal to a whole parse and validation's. */
function checkEdits(text: string, requests: readonly (readonly Operation[])[]) {
  let parsed = parseConfig(text);
  expect(validateEdited(parsed, SOURCE)).toEqual(validateParsedConfig(parsed, SOURCE));
  let kept = 0;
  let edits = 0;
  for (const operations of requests) {
    const next = edit(parsed, operations);
    if (!next) {
      // A refused edit leaves its document out, as the service does.
      parsed = parseConfig(parsed.text);
      validateEdited(parsed, SOURCE);
      continue;
    }
    edits += 1;
    const report = validateEdited(next, SOURCE);
    expect(report).toEqual(validateParsedConfig(parseConfig(next.text), SOURCE));
    if (findingsKept(next) > 0) kept += 1;
    parsed = next;
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
    let parsed = parseConfig(largeConfigText(300));
    validateEdited(parsed, SOURCE);
    for (const platform of ['desktop', 'web', 'tv']) {
      const next = edit(parsed, [{ update_app: [{ id: 'app-150', platform }] }]);
      if (!next) throw new Error('the edit was refused');
      const report = validateEdited(next, SOURCE);
      expect(report).toEqual(validateParsedConfig(parseConfig(next.text), SOURCE));
      parsed = next;
    }
    // 300 apps and 3 tests, of which app-150 is checked again.
    expect(findingsKept(parsed)).toBe(302);
    expect(validateEdited(parsed, SOURCE).issues.map((issue) => issue.path)).toEqual([
      '/apps/150/platform',
    ]);
  });
});
