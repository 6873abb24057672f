/**
 * Random config texts (with comments and blank lines) and random edit requests, for the
 * property tests of the incremental parse and the incremental stringify.
 */
import fc from 'fast-check';
import { Document } from 'yaml';
import type { Operation } from '../../contract/operations';
import { parseConfig, YAML_STRINGIFY_OPTIONS } from '../parse';
import { appArb, configArb, scalarArb } from './config-arbitraries';
import { largeConfigText } from './large-config';

/** Comment lines and blank lines put between the lines of a text, at any indentation. */
export const commentedArb = (text: string) =>
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

export const configTextArb = fc.oneof(
  configArb.map((data) => new Document(data).toString(YAML_STRINGIFY_OPTIONS)),
  { arbitrary: fc.integer({ min: 0, max: 12 }).map((apps) => largeConfigText(apps)), weight: 3 },
);

/** Texts that parse (a comment put inside a block scalar may break it). */
export const textArb = configTextArb
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

export const operationArb: fc.Arbitrary<Operation> = fc.oneof(
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

export const requestsArb = fc.array(fc.array(operationArb, { minLength: 1, maxLength: 2 }), {
  minLength: 1,
  maxLength: 4,
});

/**
 * Edits of existing apps as a person makes them (most of them land), and edits that set
 * what is already there (a large config's own app name), which change nodes, not text.
 */
export const appEditArb = fc.oneof(
  fc
    .integer({ min: 0, max: 11 })
    .map((at) => ({ update_app: [{ id: `app-${at}`, name: `App number ${at}` }] })),
  fc
    .record({
      at: fc.integer({ min: 0, max: 5 }),
      platform: fc.constantFrom('web', 'ios', 'android', 'desktop'),
      name: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('a\nb', 'x\n\n', ' y ')),
    })
    .map(({ at, platform, name }) => ({ update_app: [{ id: `app-${at}`, platform, name }] })),
  fc
    .tuple(fc.integer({ min: 0, max: 11 }), fc.string({ maxLength: 8 }))
    .map(([at, value]) => ({ set: [{ path: `/apps/${at}/settings/theme`, value }] })),
  fc.integer({ min: 0, max: 11 }).map((at) => ({ delete_app: [{ id: `app-${at}` }] })),
) as fc.Arbitrary<Operation>;
