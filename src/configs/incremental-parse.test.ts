import fc from 'fast-check';
import { isCollection, isNode, isPair } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../contract/operations';
import { editBaseOf, parseEdited, parseIncrementally } from './incremental-parse';
import { applyOperations } from './operations/apply-operations';
import { parseConfig, stringifyConfig, type ParsedConfig } from './parse';
import { requestsArb, textArb } from './testing/edit-arbitraries';
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

function fastEdit(parsed: ParsedConfig, operations: Operation[]) {
  const base = editBaseOf(parsed);
  const applied = applyOperations(parsed.document, operations, { now: NOW });
  if (!applied.ok) return undefined;
  const yaml = stringifyConfig(parsed.document);
  const incremental = base ? parseIncrementally(base, parsed.document, yaml) : undefined;
  return {
    yaml,
    next: incremental ?? parseConfig(yaml),
    paths: applied.appliedPaths,
    incremental: incremental !== undefined,
  };
}

describe('parseIncrementally', () => {
  it('gives what a whole parse gives: text, tree, ranges, comments, validation report', () => {
    let incremental = 0;
    let edits = 0;
    fc.assert(
      fc.property(textArb, requestsArb, (text, requests) => {
        let slow = parseConfig(text);
        let fast = parseConfig(text);
        for (const operations of requests) {
          const expected = slowEdit(slow, operations);
          const actual = fastEdit(fast, operations);
          expect(actual === undefined).toBe(expected === undefined);
          if (!expected || !actual) {
            // A refused edit leaves its document out: both start again from the text.
            slow = parseConfig(slow.text);
            fast = parseConfig(fast.text);
            continue;
          }
          edits += 1;
          if (actual.incremental) incremental += 1;
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
    // The fast path must be what is tested, not only the fallback.
    console.log('INC', incremental, edits);
    expect(incremental).toBeGreaterThan(edits / 10);
  }, 120_000);

  it('re-reads one app of a large config instead of the whole text', () => {
    const parsed = parseConfig(largeConfigText(200));
    const base = editBaseOf(parsed);
    expect(base).toBeDefined();
    applyOperations(parsed.document, [{ update_app: [{ id: 'app-5', platform: 'desktop' }] }]);
    const yaml = stringifyConfig(parsed.document);
    const next = base && parseIncrementally(base, parsed.document, yaml);
    expect(next).toBeDefined();
    const report = validateParsedConfig(next as ParsedConfig);
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
    expect(dumpParsed(parseEdited(base, parsed.document, yaml))).toEqual(
      dumpParsed(parseConfig(yaml)),
    );
  });
});
