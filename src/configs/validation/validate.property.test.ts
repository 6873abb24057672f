import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { validationReportSchema } from '../../contract/validation';
import { configJsonSchema, type JsonSchema } from '../config-schema';
import { configArb, scalarArb, validConfigArb } from '../testing/config-arbitraries';
import { validateConfigText } from './validate';

/** Text that looks like YAML often enough to reach deep into the parser and the rules. */
const yamlishArb = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'apps:',
        'ab_tests:',
        '  - id: a',
        '    name: A',
        '    platform: web',
        '    settings: {x: 1}',
        '  - ',
        'variants: [',
        ']',
        '{',
        '}',
        '"',
        "'",
        '&a',
        '*a',
        '!!str',
        '? ',
        ': ',
        '---',
        '...',
        '#',
        '\t',
        '%YAML 1.2',
        '|',
        '>-',
        '🚀',
        '\r\n',
      ),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(fc.sample(fc.constantFrom('\n', ' ', ''), 1)[0] ?? '\n'));

function expectWellFormedReport(text: string): void {
  const report = validateConfigText(text);
  expect(validationReportSchema.parse(report)).toEqual(report);
  const lines = (report.yaml ?? '').split('\n');
  const errors = report.issues.filter((issue) => issue.severity === 'error').length;
  expect(report.error_count).toBe(errors);
  expect(report.warning_count).toBe(report.issues.length - errors);
  expect(report.valid).toBe(errors === 0);
  const seen = new Set<string>();
  let previous = [0, 0];
  for (const issue of report.issues) {
    // Inside the text, and sorted.
    expect(issue.line).toBeLessThanOrEqual(lines.length);
    expect(issue.column).toBeLessThanOrEqual((lines[issue.line - 1]?.length ?? 0) + 1);
    const offset =
      lines.slice(0, issue.line - 1).reduce((sum, line) => sum + line.length + 1, 0) +
      issue.column -
      1;
    expect(offset + issue.length).toBeLessThanOrEqual((report.yaml ?? '').length);
    expect(
      issue.line > (previous[0] as number) ||
        (issue.line === previous[0] && issue.column >= (previous[1] as number)),
    ).toBe(true);
    previous = [issue.line, issue.column];
    const key = `${issue.code} ${issue.path}`;
    expect(seen.has(key)).toBe(false);
    seen.add(key);
  }
}

describe('validation properties', () => {
  it('never throws and always gives a well-formed report, whatever the text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), expectWellFormedReport), {
      numRuns: 500,
    });
    fc.assert(fc.property(yamlishArb, expectWellFormedReport), { numRuns: 500 });
  });

  it('gives a well-formed report for generated configs with arbitrary values swapped in', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(fc.tuple(fc.string({ maxLength: 6 }), scalarArb)),
        (config, extras) => {
          const mutated = { ...config, ...Object.fromEntries(extras) };
          expectWellFormedReport(stringify(mutated));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds no issue in a config that keeps every rule', () => {
    fc.assert(
      fc.property(validConfigArb, (config) => {
        expect(validateConfigText(stringify(config)).issues).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the JSON Schema and the validator agree', () => {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
    validateFormats: false,
  });
  ajv.addKeyword('x-issue-code');
  ajv.addKeyword('markdownDescription');
  const validate = ajv.compile(configJsonSchema);

  it('is a valid draft 2020-12 schema', () => {
    expect(validate.errors ?? null).toBeNull();
    expect(configJsonSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('accepts exactly what the validator finds no schema error in', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(
          fc.tuple(fc.constantFrom('apps', 'ab_tests', 'colour'), fc.jsonValue({ maxDepth: 2 })),
          { maxLength: 1 },
        ),
        (config, swaps) => {
          const data = { ...config, ...Object.fromEntries(swaps) };
          const report = validateConfigText(stringify(data));
          // Unknown keys are warnings for us and failures for additionalProperties: false.
          const schemaIssues = report.issues.filter(
            (issue) =>
              issue.code.startsWith('schema.') ||
              issue.code === 'ab_test.variant_count' ||
              issue.code === 'ab_test.metric_count',
          );
          expect(validate(data)).toBe(schemaIssues.length === 0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('uses only keywords the validator interprets', () => {
    const interpreted = new Set([
      '$schema',
      '$id',
      '$ref',
      '$defs',
      'title',
      'description',
      'markdownDescription',
      'type',
      'enum',
      'pattern',
      'format',
      'minLength',
      'maxLength',
      'minimum',
      'maximum',
      'properties',
      'required',
      'additionalProperties',
      'propertyNames',
      'items',
      'minItems',
      'maxItems',
      'default',
      'examples',
      'x-issue-code',
    ]);
    const used = new Set<string>();
    const visit = (schema: JsonSchema): void => {
      Object.keys(schema).forEach((key) => used.add(key));
      Object.values(schema.properties ?? {}).forEach(visit);
      Object.values(schema.$defs ?? {}).forEach(visit);
      if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties);
      if (schema.items) visit(schema.items);
      if (schema.propertyNames) visit(schema.propertyNames);
    };
    visit(configJsonSchema);
    expect([...used].filter((key) => !interpreted.has(key))).toEqual([]);
  });
});
