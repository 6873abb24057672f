import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editBaseOf, parseEdited } from './incremental-parse';
import { writeEdited, writeIncrementally, type WrittenText } from './incremental-stringify';
import { applyOperations } from './operations/apply-operations';
import { EditChanges } from './operations/edit-changes';
import { parseConfig, stringifyConfig, type ParsedConfig } from './parse';
import { appEditArb, commentedArb, operationArb, textArb } from './testing/edit-arbitraries';
import { largeConfigText } from './testing/large-config';

const NOW = new Date('2026-01-01T00:00:00.000Z');

/**
 * App edits mixed with the parse test's random operations; longer sequences than there,
 * as only edits after the first can splice (a document parsed from stored text is written
 * whole once).
 */
const requestsArb = fc.array(
  fc.array(fc.oneof({ arbitrary: appEditArb, weight: 4 }, operationArb), {
    minLength: 1,
    maxLength: 2,
  }),
  { minLength: 3, maxLength: 8 },
);
/** More of the large configs (with comments) than the parse test, as edits land there. */
const configTextsArb = fc.oneof(
  textArb,
  fc
    .integer({ min: 3, max: 12 })
    .chain((apps) => commentedArb(largeConfigText(apps)))
    .filter((text) => parseConfig(text).syntaxIssues.length === 0),
);

/** A parsed config and what was last written for it, as the service holds them. */
interface Held {
  readonly parsed: ParsedConfig;
  readonly written?: WrittenText | undefined;
}

/** One edit as the service makes it; `spliced` is what the fast path answered. */
function edit({ parsed, written }: Held, operations: Parameters<typeof applyOperations>[1]) {
  const base = editBaseOf(parsed, written);
  const changes = new EditChanges();
  const applied = applyOperations(parsed.document, operations, { now: NOW, changes });
  if (!applied.ok) return undefined;
  const expected = stringifyConfig(parsed.document);
  const spliced = base?.write
    ? writeIncrementally(base.write, parsed.document, changes)
    : undefined;
  const { text: yaml, written: note } = writeEdited(base?.write, parsed.document, changes);
  // `noted`: the document is known to write to its text (not the first edit after a parse
  // of stored text or of the whole text), so the splice may answer.
  const noted = base?.write !== undefined;
  const next: Held = {
    parsed: parseEdited(base, parsed.document, yaml, changes).parsed,
    written: note,
  };
  return { expected, spliced, noted, yaml, next };
}

describe('writeEdited', () => {
  it('writes what stringifyConfig writes, splicing the changed items when it can', () => {
    let spliced = 0;
    let noted = 0;
    let edits = 0;
    fc.assert(
      fc.property(configTextsArb, requestsArb, (text, requests) => {
        let config: Held = { parsed: parseConfig(text) };
        for (const operations of requests) {
          const outcome = edit(config, operations);
          if (!outcome) {
            // A refused edit leaves its document out, as the service does.
            config = { parsed: parseConfig(config.parsed.text) };
            continue;
          }
          edits += 1;
          if (outcome.noted) noted += 1;
          if (outcome.spliced !== undefined) {
            spliced += 1;
            expect(outcome.spliced).toBe(outcome.expected);
          }
          expect(outcome.yaml).toBe(outcome.expected);
          config = outcome.next;
        }
      }),
      { numRuns: 300 },
    );
    console.log(`incremental stringify: ${spliced} of ${edits} edits spliced (${noted} noted)`);
    // The splice must be what is tested, not only the fallback.
    expect(spliced).toBeGreaterThan(edits / 20);
    expect(spliced).toBeGreaterThan(noted / 3);
  }, 240_000);

  it('splices most edits of existing apps in a large config with comments', () => {
    let spliced = 0;
    let noted = 0;
    let edits = 0;
    const textsArb = fc
      .integer({ min: 6, max: 12 })
      .chain((apps) => commentedArb(largeConfigText(apps)))
      .filter((text) => parseConfig(text).syntaxIssues.length === 0);
    fc.assert(
      fc.property(
        textsArb,
        fc.array(appEditArb, { minLength: 3, maxLength: 8 }),
        (text, operations) => {
          let config: Held = { parsed: parseConfig(text) };
          for (const operation of operations) {
            const outcome = edit(config, [operation]);
            if (!outcome) {
              config = { parsed: parseConfig(config.parsed.text) };
              continue;
            }
            edits += 1;
            if (outcome.noted) noted += 1;
            if (outcome.spliced !== undefined) spliced += 1;
            expect(outcome.spliced ?? outcome.expected).toBe(outcome.expected);
            expect(outcome.yaml).toBe(outcome.expected);
            config = outcome.next;
          }
        },
      ),
      { numRuns: 100 },
    );
    console.log(
      `incremental stringify, app edits: ${spliced} of ${edits} edits spliced (${noted} noted)`,
    );
    // Of the edits that may splice, only those of the first or last app may not.
    expect(spliced).toBeGreaterThan(noted / 2);
  }, 240_000);

  it('splices the bench edit: one app in the middle of 1,000, edit after edit', () => {
    let config: Held = { parsed: parseConfig(largeConfigText(1000)) };
    const platforms = ['desktop', 'web', 'ios'];
    const outcomes = platforms.map((platform, at) => {
      const outcome = edit(config, [{ update_app: [{ id: `app-${500 + at}`, platform }] }]);
      if (!outcome) throw new Error('the edit was refused');
      config = outcome.next;
      return outcome;
    });
    // The first edit of a document parsed from stored text writes it whole; the next ones
    // splice, and give the whole stringify's text.
    expect(outcomes.map((outcome) => outcome.spliced !== undefined)).toEqual([false, true, true]);
    for (const outcome of outcomes) expect(outcome.yaml).toBe(outcome.expected);
    expect(outcomes[2]?.yaml).toContain(
      '  - id: app-502\n    name: App number 502\n    platform: ios\n',
    );
  });

  it('writes the whole document when the edit is outside the lists', () => {
    let config: Held = { parsed: parseConfig(`${largeConfigText(5)}owner: me\n`) };
    const first = edit(config, [{ update_app: [{ id: 'app-2', platform: 'web' }] }]);
    expect(first).toBeDefined();
    config = (first as NonNullable<typeof first>).next;
    const second = edit(config, [{ set: [{ path: '/owner', value: 'you' }] }]);
    expect(second?.spliced).toBeUndefined();
    expect(second?.yaml).toBe(second?.expected);
    expect(second?.yaml).toContain('owner: you\n');
  });
});
