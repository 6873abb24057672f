import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { MAX_NESTING_DEPTH } from '../contract/limits';
import { normalizeLineEnds, parseConfig, stringifyConfig, YAML_PARSE_OPTIONS } from './parse';
import { nodeNestsDeeperThan } from './yaml-tree';

describe('parseConfig', () => {
  it('keeps comments and source ranges', () => {
    const parsed = parseConfig('# top\napps:\n  # the apps\n  - id: a # first\n');
    expect(parsed.syntaxIssues).toEqual([]);
    expect(stringifyConfig(parsed.document)).toBe(
      '# top\napps:\n  # the apps\n  - id: a # first\n',
    );
    // "# top\n", "apps:\n" and "  # the apps\n" are 25 characters; the list starts 2 later.
    const apps = parsed.document.get('apps', true) as { range: number[] };
    expect(apps.range[0]).toBe(27);
  });

  it('makes CRLF and CR line ends \\n and drops a BOM', () => {
    expect(normalizeLineEnds('\uFEFFa: 1\r\nb: 2\rc: 3\n')).toBe('a: 1\nb: 2\nc: 3\n');
    expect(parseConfig('a: 1\r\nb: 2\r\n').text).toBe('a: 1\nb: 2\n');
  });

  it('never throws: syntax errors become positioned issues', () => {
    const parsed = parseConfig('a: "open\n');
    expect(parsed.syntaxIssues).toHaveLength(1);
    expect(parsed.syntaxIssues[0]).toMatchObject({
      code: 'yaml.syntax',
      severity: 'error',
      path: '',
    });
  });
});

/** `deep:` holding `levels` lists in flow style: the config nests `levels + 1` levels. */
const flowLists = (levels: number) => `deep: ${'['.repeat(levels)}1${']'.repeat(levels)}\n`;

/** The same in block style, one mapping per level: `levels + 1` levels in all. */
function blockMaps(levels: number): string {
  const lines = ['deep:'];
  for (let level = 1; level < levels; level++) lines.push(`${'  '.repeat(level)}k:`);
  lines.push(`${'  '.repeat(levels)}k: 1`);
  return `${lines.join('\n')}\n`;
}

describe('the nesting limit', () => {
  it(`reads a config nested ${MAX_NESTING_DEPTH} levels and refuses one level more`, () => {
    for (const text of [flowLists, blockMaps]) {
      expect(parseConfig(text(MAX_NESTING_DEPTH - 1)).syntaxIssues).toEqual([]);
      const parsed = parseConfig(text(MAX_NESTING_DEPTH));
      expect(parsed.syntaxIssues).toHaveLength(1);
      expect(parsed.syntaxIssues[0]).toMatchObject({ code: 'yaml.too_deep', severity: 'error' });
      expect(parsed.syntaxIssues[0]?.message).toContain(String(MAX_NESTING_DEPTH));
      // The document is empty and marked unreadable: it cannot be written in the text's place.
      expect(() => stringifyConfig(parsed.document)).toThrow();
    }
  });

  it('puts the issue where the first level past the limit starts', () => {
    expect(parseConfig(flowLists(MAX_NESTING_DEPTH)).syntaxIssues[0]).toMatchObject({
      line: 1,
      column: 'deep: '.length + MAX_NESTING_DEPTH,
    });
    expect(parseConfig(blockMaps(MAX_NESTING_DEPTH)).syntaxIssues[0]).toMatchObject({
      line: MAX_NESTING_DEPTH + 1,
    });
  });

  it('refuses text nested 100,000 levels deep with one issue, without a stack overflow', () => {
    for (const text of [
      flowLists(100_000),
      `a: ${'{b: '.repeat(100_000)}`,
      `[${'['.repeat(50_000)}`,
    ]) {
      expect(parseConfig(text).syntaxIssues.map((issue) => issue.code)).toEqual(['yaml.too_deep']);
    }
  });

  it('measures the text as the document counts its levels, flow pairs in lists included', () => {
    // Random nestings near the limit, in block and flow style; `[a: b]` makes a mapping.
    const level = fc.constantFrom('block-map', 'block-list', 'flow-map', 'flow-list', 'flow-pair');
    const flow = (levels: readonly string[]): string => {
      const [kind, ...rest] = levels;
      if (kind === undefined) return '1';
      if (kind === 'flow-pair') return `[k: ${flow(rest)}]`;
      return kind.endsWith('map') ? `{k: ${flow(rest)}}` : `[${flow(rest)}]`;
    };
    const render = (levels: readonly string[], indent: string): string => {
      const [kind, ...rest] = levels;
      if (kind === undefined) return '1';
      if (kind.startsWith('flow')) return flow(levels);
      const inner = `${indent}  `;
      return `\n${inner}${kind === 'block-map' ? 'k: ' : '- '}${render(rest, inner)}`;
    };
    const outcomes = new Set<boolean>();
    fc.assert(
      fc.property(fc.array(level, { minLength: 20, maxLength: 40 }), (levels) => {
        const text = `deep: ${render(levels, '')}\n`;
        const whole = parseDocument(text, YAML_PARSE_OPTIONS);
        fc.pre(whole.errors.length === 0);
        const tooDeep = nodeNestsDeeperThan(whole.contents, MAX_NESTING_DEPTH);
        const codes = parseConfig(text).syntaxIssues.map((issue) => issue.code);
        expect(codes).toEqual(tooDeep ? ['yaml.too_deep'] : []);
        outcomes.add(tooDeep);
      }),
      { numRuns: 300 },
    );
    expect(outcomes).toEqual(new Set([true, false]));
  });
});

describe('stringifyConfig', () => {
  it('writes an untouched document back without refolding or repadding it', () => {
    const text = `description: ${'word '.repeat(30)}end\nflow: [1, 2]\nmap: {x: 1} # kept\n`;
    expect(stringifyConfig(parseConfig(text).document)).toBe(text);
  });
});
