import fc from 'fast-check';
import { Document, isCollection, isNode, isPair } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../contract/operations';
import { editBaseOf, parseEdited, parseIncrementally } from './incremental-parse';
import { applyOperations } from './operations/apply-operations';
import { parseConfig, stringifyConfig, YAML_STRINGIFY_OPTIONS, type ParsedConfig } from './parse';
import { appArb, configArb, scalarArb } from './testing/config-arbitraries';
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

/** Comment lines and blank lines put between the lines of a text, at any indentation. */
const commentedArb = (text: string) =>
  fc
    .array(
      fc.record({
        line: fc.nat(),
        indent: fc.constantFrom('', '  ', '    ', '      ', '        '),
        kind: fc.constantFrom('comment', 'blank'),
      }),
      { maxLength: 8 },
    )
    .map((insertions) => {
      const lines = text.split('\n');
      for (const { line, indent, kind } of insertions) {
        const at = line % lines.length;
        lines.splice(at, 0, kind === 'blank' ? '' : `${indent}# note ${at}`);
      }
      return lines.join('\n');
    });

const configTextArb = fc.oneof(
  configArb.map((data) => new Document(data).toString(YAML_STRINGIFY_OPTIONS)),
  { arbitrary: fc.integer({ min: 0, max: 12 }).map((apps) => largeConfigText(apps)), weight: 3 },
);

/** Texts that parse (a comment put inside a block scalar may break it). */
const textArb = configTextArb
  .chain((text) => fc.oneof(fc.constant(text), commentedArb(text)))
  .filter((text) => parseConfig(text).syntaxIssues.length === 0);

const someId = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 12 }).map((at) => `app-${at}`), weight: 8 },
  fc.constantFrom('test-0', 'test-100'),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,3}$/),
);
const index = fc.nat({ max: 9 });
const pointerArb = fc.oneof(
  fc
    .tuple(index, fc.constantFrom('name', 'platform', 'enabled', 'settings', 'id'))
    .map(([at, field]) => `/apps/${at}/${field}`),
  index.map((at) => `/apps/${at}`),
  fc.constant('/apps/-'),
  fc
    .tuple(index, fc.constantFrom('status', 'description', 'variants'))
    .map(([at, field]) => `/ab_tests/${at}/${field}`),
  fc.constantFrom('/notes', '/apps', '/', '/ab_tests/0/variants/0/weight'),
);

const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          id: someId,
          name: fc.oneof(fc.string({ maxLength: 10 }), scalarArb),
          platform: fc.constantFrom('web', 'ios', 'desktop', 'android'),
          enabled: fc.boolean(),
          settings: fc.dictionary(
            fc.stringMatching(/^[a-z]{1,5}$/),
            fc.option(scalarArb, { nil: null }),
            {
              maxKeys: 3,
            },
          ),
        },
        { requiredKeys: ['id'] },
      )
      .map((item) => ({ update_app: [item] }) as Operation),
  },
  appArb.map((app) => ({ create_app: [app] }) as Operation),
  someId.map((id) => ({ delete_app: [{ id }] }) as Operation),
  fc
    .tuple(pointerArb, fc.oneof(scalarArb, fc.jsonValue({ maxDepth: 2 })))
    .map(([path, value]) => ({ set: [{ path, value }] }) as Operation),
  pointerArb.map((path) => ({ unset: [{ path }] }) as Operation),
  fc
    .tuple(someId, fc.string({ maxLength: 12 }))
    .map(([id, description]) => ({ update_ab_test: [{ id, description }] }) as Operation),
  someId.map((id) => ({ start_ab_test: [{ id }] }) as Operation),
);

const requestsArb = fc.array(fc.array(operationArb, { minLength: 1, maxLength: 2 }), {
  minLength: 1,
  maxLength: 4,
});

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
