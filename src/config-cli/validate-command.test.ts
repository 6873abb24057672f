/**
 * `config validate`: offline, every issue as FILE:LINE:COLUMN (columns in UTF-16 code units),
 * GitHub annotations, JSON, and the exit codes 0 (valid, warnings allowed), 1 (errors, or
 * warnings with --strict) and 2 (a file that cannot be read, a misuse).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConfig } from '../service/testing/config-cli';

const dir = mkdtempSync(join(tmpdir(), 'config-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

// No service: validate needs neither a URL nor a key.
const validate = (...args: string[]) => runConfig({}, 'validate', ...args);

const VALID = file(
  'valid.yaml',
  'apps:\n  - id: checkout\n    name: Checkout\n    platform: web\n',
);
const BROKEN = file(
  'broken.yaml',
  'apps:\n  - id: checkout\n    name: "🛒 Checkout"\n    platform: desktop\n    {\n',
);
// The emoji is two UTF-16 code units: "desktop" starts at column 43 (41 code points before it).
const INVALID = file(
  'invalid.yaml',
  '# Our apps.\napps:\n  - { name: "🛒", id: checkout, platform: desktop }\n',
);
const WARNED = file(
  'warned.yaml',
  [
    'apps:',
    '  - id: checkout',
    '    name: Checkout',
    '    platform: web',
    'ab_tests:',
    '  - id: big',
    '    app: checkout',
    '    status: draft',
    '    variants:',
    '      - id: a',
    '        weight: 50',
    '      - id: b',
    '        weight: 50',
    '        settings:',
    '          size: large',
    '',
  ].join('\n'),
);

describe('provisioning config validate', () => {
  it('prints nothing and exits 0 for a valid file', async () => {
    expect(await validate(VALID)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('prints each error as FILE:LINE:COLUMN, columns in UTF-16 code units, and exits 1', async () => {
    const line = `${INVALID}:3:43: error schema.enum apps[0].platform must be one of web, ios, android, server; got "desktop"\n`;
    expect(await validate(INVALID, VALID)).toEqual({ code: 1, stdout: line, stderr: '' });
  });

  it('reports what the parser says of a file it cannot read as YAML', async () => {
    const run = await validate(BROKEN);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^${BROKEN}:5:5: error yaml\\.`));
  });

  it('lets warnings pass, unless --strict', async () => {
    const line = `${WARNED}:15:11: warning ab_test.unknown_setting Variant "b" overrides "size", which the app "checkout" does not define\n`;
    expect(await validate(WARNED)).toEqual({ code: 0, stdout: line, stderr: '' });
    expect(await validate('--strict', WARNED)).toEqual({ code: 1, stdout: line, stderr: '' });
  });

  it('writes GitHub annotations with --format github', async () => {
    expect(await validate('--format', 'github', INVALID, WARNED)).toEqual({
      code: 1,
      stdout:
        `::error file=${INVALID},line=3,col=43::schema.enum apps[0].platform must be one of web, ios, android, server; got "desktop"\n` +
        `::warning file=${WARNED},line=15,col=11::ab_test.unknown_setting Variant "b" overrides "size", which the app "checkout" does not define\n`,
      stderr: '',
    });
  });

  it('writes one JSON value with --format json', async () => {
    const run = await validate('--format', 'json', VALID, INVALID);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual([
      { file: VALID, valid: true, error_count: 0, warning_count: 0, issues: [] },
      {
        file: INVALID,
        valid: false,
        error_count: 1,
        warning_count: 0,
        issues: [
          {
            line: 3,
            column: 43,
            length: 7,
            severity: 'error',
            code: 'schema.enum',
            message: 'apps[0].platform must be one of web, ios, android, server; got "desktop"',
            path: '/apps/0/platform',
          },
        ],
      },
    ]);
  });

  it('exits 2 for a file it cannot read, after validating the others', async () => {
    const missing = join(dir, 'missing.yaml');
    expect(await validate(missing, INVALID)).toEqual({
      code: 2,
      stdout: `${INVALID}:3:43: error schema.enum apps[0].platform must be one of web, ios, android, server; got "desktop"\n`,
      stderr: `provisioning config validate: cannot read ${missing}: ENOENT\n`,
    });
  });

  it('exits 2 when misused: no file, an unknown format or option', async () => {
    expect(await validate()).toEqual({
      code: 2,
      stdout: '',
      stderr: 'provisioning config validate: name at least one file to validate\n',
    });
    expect(await validate('--format', 'xml', VALID)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'provisioning config validate: --format must be one of text, json, github\n',
    });
    const unknown = await validate('--fix', VALID);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^provisioning config validate: Unknown option '--fix'/);
  });
});
