/**
 * The chunked reader must read every text exactly as the full parse does, or decline.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { MAX_NESTING_DEPTH } from '../contract/limits';
import { ChunkedConfigReader } from './chunked-data';
import { parseConfig, YAML_PARSE_OPTIONS } from './parse';
import { applyEdits, configArb, editsArb } from './testing/config-arbitraries';
import { largeConfigText } from './testing/large-config';

/** What the full parse makes of the text: its data, or 'error' when it has syntax issues. */
function fullRead(text: string): { data: unknown } | 'error' {
  const parsed = parseConfig(text);
  if (parsed.syntaxIssues.length > 0) return 'error';
  try {
    return {
      data: parsed.document.toJS({ maxAliasCount: YAML_PARSE_OPTIONS.maxAliasCount }) ?? null,
    };
  } catch {
    return 'error';
  }
}

function expectSameReading(reader: ChunkedConfigReader, text: string): boolean {
  const chunked = reader.dataOf(text);
  const full = fullRead(text);
  if (full === 'error') expect(chunked).toBeUndefined();
  else if (chunked) expect(chunked.data).toEqual(full.data);
  return chunked !== undefined;
}

/** Lines a person might type or paste, some of them in no simple shape at all. */
const FRAGMENTS = [
  '',
  '# a comment',
  '  # an indented comment',
  '  - id: extra',
  '    name: Extra',
  '- id: top',
  'apps:',
  'ab_tests:',
  'other: 1',
  'apps: []',
  '  - &anchor',
  '    name: *anchor',
  '---',
  '...',
  '%YAML 1.2',
  '  "unterminated',
  '    note: |',
  '      # inside a block scalar',
  '  -',
  '  -x',
  '\t- tab',
  ' - one space',
  '    - deeper',
  '? complex',
  '{flow: 1}',
  '"quoted": 1',
  'apps: # comment',
  '  key: value',
  '__proto__: 1',
];

const mutationArb = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('insert', 'delete', 'indent', 'outdent', 'duplicate'),
  fragment: fc.constantFrom(...FRAGMENTS),
});

type Mutation = typeof mutationArb extends fc.Arbitrary<infer M> ? M : never;

function mutate(text: string, mutations: readonly Mutation[]): string {
  const lines = text.split('\n');
  for (const { at, kind, fragment } of mutations) {
    const index = at % (lines.length + 1);
    const line = lines[index] ?? '';
    if (kind === 'insert') lines.splice(index, 0, fragment);
    else if (kind === 'delete') lines.splice(index, 1);
    else if (kind === 'indent') lines[index] = `  ${line}`;
    else if (kind === 'outdent') lines[index] = line.replace(/^ {1,2}/, '');
    else lines.splice(index, 0, line);
  }
  return lines.join('\n');
}

const textOfArb = configArb.chain((config) =>
  fc
    .record({
      indentSeq: fc.boolean(),
      comments: fc.boolean(),
      flow: fc.boolean(),
    })
    .map(({ indentSeq, comments, flow }) => {
      const text = stringify(config, {
        indentSeq,
        lineWidth: 0,
        ...(flow ? { collectionStyle: 'flow' as const } : {}),
      });
      return comments ? text.replace(/^( *)- /gm, '$1# an item\n$1- ') : text;
    }),
);

describe('ChunkedConfigReader', () => {
  it('reads a large generated config as the full parse does', () => {
    const reader = new ChunkedConfigReader();
    const text = largeConfigText(300);
    expect(expectSameReading(reader, text)).toBe(true);
    // An edit of one app: the same data but that app's, and read from the cache.
    const edited = text.replace('name: App number 7\n', 'name: Seven\n');
    expect(expectSameReading(reader, edited)).toBe(true);
  });

  it('reads every generated config and every edit of it as the full parse does, or declines', () => {
    const reader = new ChunkedConfigReader();
    let read = 0;
    fc.assert(
      fc.property(textOfArb, fc.array(mutationArb, { maxLength: 4 }), (text, mutations) => {
        expectSameReading(reader, text);
        if (expectSameReading(reader, mutate(text, mutations))) read += 1;
      }),
      { numRuns: 400 },
    );
    // Not only declines: a quarter of the texts are in block style, and edits often keep it.
    expect(read).toBeGreaterThan(30);
  });

  it('reads the block style the console and the service write (it does not decline it)', () => {
    const reader = new ChunkedConfigReader();
    fc.assert(
      fc.property(configArb, editsArb, (config, edits) => {
        // An empty config is written `{}`: flow style, which the full parse reads.
        fc.pre(Object.keys(config).length > 0 && Object.keys(applyEdits(config, edits)).length > 0);
        const text = stringify(config, { lineWidth: 0 });
        const edited = stringify(applyEdits(config, edits), { lineWidth: 0 });
        expect(expectSameReading(reader, text)).toBe(true);
        expect(expectSameReading(reader, edited)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('reads nesting up to the limit as the full parse does, and declines what is deeper', () => {
    const reader = new ChunkedConfigReader();
    // An app's settings value `levels` lists deep: the config nests 4 + levels.
    const appWith = (levels: number) =>
      `apps:\n  - id: a\n    settings:\n      x: ${'['.repeat(levels)}1${']'.repeat(levels)}\n`;
    const skeletonWith = (levels: number) => `other: ${'['.repeat(levels)}1${']'.repeat(levels)}\n`;
    for (let levels = MAX_NESTING_DEPTH - 6; levels <= MAX_NESTING_DEPTH; levels++) {
      expectSameReading(reader, appWith(levels));
      expectSameReading(reader, skeletonWith(levels));
    }
    expect(reader.dataOf(appWith(MAX_NESTING_DEPTH - 4))).toBeDefined();
    expect(reader.dataOf(appWith(MAX_NESTING_DEPTH - 3))).toBeUndefined();
    expect(reader.dataOf(skeletonWith(MAX_NESTING_DEPTH))).toBeUndefined();
  });

  it('declines anchors and aliases, which may reach across items', () => {
    const reader = new ChunkedConfigReader();
    const text = 'apps:\n  - &a\n    id: a\n  - *a\n';
    expect(reader.dataOf(text)).toBeUndefined();
  });

  it('returns frozen data, shared by the texts that hold the same item', () => {
    const reader = new ChunkedConfigReader();
    const base = largeConfigText(3);
    const first = reader.dataOf(base)?.data as { apps: object[] };
    const second = reader.dataOf(base.replace('App number 2', 'Two'))?.data as { apps: object[] };
    expect(Object.isFrozen(first.apps[0])).toBe(true);
    expect(second.apps[0]).toBe(first.apps[0]);
    expect(second.apps[2]).not.toBe(first.apps[2]);
  });
});
