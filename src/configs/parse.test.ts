import { describe, expect, it } from 'vitest';
import { normalizeLineEnds, parseConfig, stringifyConfig } from './parse';

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

describe('stringifyConfig', () => {
  it('writes an untouched document back without refolding or repadding it', () => {
    const text = `description: ${'word '.repeat(30)}end\nflow: [1, 2]\nmap: {x: 1} # kept\n`;
    expect(stringifyConfig(parseConfig(text).document)).toBe(text);
  });
});
