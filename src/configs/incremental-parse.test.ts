import fc from 'fast-check';
import { isCollection, isNode, isPair } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../contract/operations';
import { editBaseOf, parseEdited, parseIncrementally } from './incremental-parse';
import { applyOperations } from './operations/apply-operations';
import { EditChanges } from './operations/edit-changes';
import { parseConfig, stringifyConfig, type ParsedConfig } from './parse';
import { appEditArb, commentedArb, requestsArb, textArb } from './testing/edit-arbitraries';
import { largeConfigText } from './testing/large-config';
import { validateParsedConfig } from './validation/validate';

const NOW = new Date('2026-01-01T00:00:00.000Z');

/** Everything of a node tree the parser sets (ranges, comments, styles), as plain data. */
function dump(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dump);
  if (isPair(value)) return { key: dump(value.key), value: dump(value.value) };
  if (isNode(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'schema' || key === 'srcToken' || inner === undefined) continue;
      out[key] = key === 'items' && isCollection(value) ? dump(inner) : structuredClone(inner);
    }
    return out;
  }
  return value;
}

function dumpParsed(parsed: ParsedConfig) {
  const { document } = parsed;
  return {
    text: parsed.text,
    lineStarts: parsed.lineCounter.lineStarts,
    syntaxIssues: parsed.syntaxIssues,
    range: document.range,
    comment: document.comment,
    commentBefore: document.commentBefore,
    contents: dump(document.contents),
  };
}

/** What the service did before: apply, write, parse the whole text. */
function slowEdit(parsed: ParsedConfig, operations: Operation[]) {
  const applied = applyOperations(parsed.document, operations, { now: NOW });
  if (!applied.ok) return undefined;
  const yaml = stringifyConfig(parsed.document);
  return { yaml, next: parseConfig(yaml), paths: applied.appliedPaths };
}

/**
 * The incremental parse; with `noted`, told what the operations changed (as the service
 * does), else left to check every node itself.
 */
function fastEdit(parsed: ParsedConfig, operations: Operation[], noted: boolean) {
  const base = editBaseOf(parsed);
  const changes = new EditChanges();
  const applied = applyOperations(parsed.document, operations, { now: NOW, changes });
  if (!applied.ok) return undefined;
  const yaml = stringifyConfig(parsed.document);
  const incremental = base
    ? parseIncrementally(base, parsed.document, yaml, noted ? changes : undefined)
    : undefined;
  return {
    yaml,
    next: incremental?.parsed ?? parseConfig(yaml),
    paths: applied.appliedPaths,
    incremental: incremental !== undefined,
    known: incremental?.reusedItemsUnchanged === true,
  };
}

describe('parseIncrementally', () => {
  it('gives what a whole parse gives: text, tree, ranges, comments, validation report', () => {
    let incremental = 0;
    let known = 0;
    let edits = 0;
    fc.assert(
      fc.property(textArb, requestsArb, (text, requests) => {
        let slow = parseConfig(text);
        let fast = parseConfig(text);
        for (const operations of requests) {
          const expected = slowEdit(slow, operations);
          // Every other edit is told what the operations changed.
          const actual = fastEdit(fast, operations, edits % 2 === 0);
          expect(actual === undefined).toBe(expected === undefined);
          if (!expected || !actual) {
            // A refused edit leaves its document out: both start again from the text.
            slow = parseConfig(slow.text);
            fast = parseConfig(fast.text);
            continue;
          }
          edits += 1;
          if (actual.incremental) incremental += 1;
          if (actual.known) known += 1;
          expect(actual.yaml).toBe(expected.yaml);
          expect(actual.paths).toEqual(expected.paths);
          expect(dumpParsed(actual.next)).toEqual(dumpParsed(expected.next));
          expect(validateParsedConfig(actual.next)).toEqual(validateParsedConfig(expected.next));
          slow = expected.next;
          fast = actual.next;
        }
      }),
      { numRuns: 200 },
    );
    // The fast paths must be what is tested, not only the fallback: with the operations'
    // note of what changed, and without it (every node checked).
    console.log(`incremental parse: ${incremental} of ${edits} edits, ${known} from the note`);
    expect(incremental).toBeGreaterThan(edits / 10);
    expect(known).toBeGreaterThan(0);
    expect(incremental - known).toBeGreaterThan(edits / 20);
  }, 120_000);

  const appRequestsArb = fc.array(fc.array(appEditArb, { minLength: 1, maxLength: 2 }), {
    minLength: 1,
    maxLength: 6,
  });

  it('is told what app edits of a large config changed, and then walks no unchanged item', () => {
    let known = 0;
    let edits = 0;
    const textsArb = fc
      .integer({ min: 6, max: 12 })
      .chain((apps) => commentedArb(largeConfigText(apps)))
      .filter((text) => parseConfig(text).syntaxIssues.length === 0);
    fc.assert(
      fc.property(textsArb, appRequestsArb, (text, requests) => {
        let slow = parseConfig(text);
        let fast = parseConfig(text);
        for (const operations of requests) {
          const expected = slowEdit(slow, operations);
          const actual = fastEdit(fast, operations, true);
          if (!expected || !actual) {
            slow = parseConfig(slow.text);
            fast = parseConfig(fast.text);
            continue;
          }
          edits += 1;
          if (actual.known) known += 1;
          expect(dumpParsed(actual.next)).toEqual(dumpParsed(expected.next));
          slow = expected.next;
          fast = actual.next;
        }
      }),
      { numRuns: 100 },
    );
    console.log(`incremental parse, app edits: ${known} of ${edits} from the note`);
    // Not edits of the first or last app, nor those that change no text (no stretch).
    expect(known).toBeGreaterThan(edits / 4);
  }, 120_000);

  it('re-reads one app of a large config instead of the whole text', () => {
    const parsed = parseConfig(largeConfigText(200));
    const base = editBaseOf(parsed);
    expect(base).toBeDefined();
    const changes = new EditChanges();
    applyOperations(parsed.document, [{ update_app: [{ id: 'app-5', platform: 'desktop' }] }], {
      changes,
    });
    const yaml = stringifyConfig(parsed.document);
    const next = base && parseIncrementally(base, parsed.document, yaml, changes);
    expect(next?.reusedItemsUnchanged).toBe(true);
    const report = validateParsedConfig(next?.parsed as ParsedConfig);
    expect(report).toEqual(validateParsedConfig(parseConfig(yaml)));
    expect(report.issues.map((issue) => [issue.code, issue.path, issue.line])).toEqual([
      ['schema.enum', '/apps/5/platform', 2 + 5 * 9 + 4],
    ]);
  });

  it('parses the whole text when the edit is outside the lists', () => {
    const parsed = parseConfig(`${largeConfigText(5)}owner: me\n`);
    const base = editBaseOf(parsed);
    applyOperations(parsed.document, [{ set: [{ path: '/owner', value: 'you' }] }]);
    const yaml = stringifyConfig(parsed.document);
    expect(base && parseIncrementally(base, parsed.document, yaml)).toBeUndefined();
    expect(dumpParsed(parseEdited(base, parsed.document, yaml).parsed)).toEqual(
      dumpParsed(parseConfig(yaml)),
    );
  });
});
