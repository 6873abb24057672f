/** The issue formats' edge cases: GitHub's escaping, and messages that span lines. */
import { describe, expect, it } from 'vitest';
import type { ValidationIssue } from '../contract/validation';
import { githubAnnotation, issueLine } from './issue-formats';

const issue: ValidationIssue = {
  code: 'yaml.syntax',
  message: 'Nested mappings are not allowed\n  at line 3, 100% sure',
  path: '',
  line: 3,
  column: 2,
  length: 1,
  severity: 'error',
};

describe('the issue formats', () => {
  it('joins a message that spans lines into one line', () => {
    expect(issueLine('a.yaml', issue)).toBe(
      'a.yaml:3:2: error yaml.syntax Nested mappings are not allowed at line 3, 100% sure\n',
    );
  });

  it("escapes GitHub's workflow-command characters in the message and the file name", () => {
    expect(githubAnnotation('config/a,b:c%.yaml', issue)).toBe(
      '::error file=config/a%2Cb%3Ac%25.yaml,line=3,col=2::yaml.syntax Nested mappings are not allowed%0A  at line 3, 100%25 sure\n',
    );
  });
});
