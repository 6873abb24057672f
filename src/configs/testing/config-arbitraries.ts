/**
 * fast-check generators of configs and of edits to them, for the property tests of
 * validation and of editor text -> operations. Test-only: nothing in the product imports it.
 */
import fc from 'fast-check';
import { AB_TEST_STATUSES, PLATFORMS } from '../../contract/config-document';

export type Data = Record<string, unknown>;

const idArb = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const settingKeyArb = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);

/** Strings a YAML writer must quote: look-alikes of numbers, booleans, nulls, syntax. */
const trickyStringArb = fc.constantFrom(
  'yes',
  'no',
  'null',
  '~',
  '1',
  '0x1F',
  '1e3',
  '- item',
  'a: b',
  '# not a comment',
  '  padded  ',
  '',
  'line\nbreak',
  '🚀 launch',
  '"quoted"',
  "it's",
  '*alias',
  '&anchor',
  '!tag',
);

export const scalarArb: fc.Arbitrary<string | number | boolean> = fc.oneof(
  fc.string({ maxLength: 12 }),
  trickyStringArb,
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)),
  fc.boolean(),
);

const settingsArb = fc.dictionary(settingKeyArb, scalarArb, { maxKeys: 4 });

export const appArb: fc.Arbitrary<Data> = fc.record(
  {
    id: idArb,
    name: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), trickyStringArb),
    platform: fc.constantFrom(...PLATFORMS),
    enabled: fc.boolean(),
    settings: settingsArb,
  },
  { requiredKeys: ['id', 'name', 'platform'] },
);

const variantArb: fc.Arbitrary<Data> = fc.record(
  { id: idArb, weight: fc.integer({ min: 0, max: 100 }), settings: settingsArb },
  { requiredKeys: ['id', 'weight'] },
);

export const abTestArb = (appIds: readonly string[]): fc.Arbitrary<Data> =>
  fc.record(
    {
      id: idArb,
      app: appIds.length > 0 ? fc.constantFrom(...appIds) : idArb,
      description: fc.string({ maxLength: 30 }),
      status: fc.constantFrom(...AB_TEST_STATUSES),
      variants: fc.uniqueArray(variantArb, { minLength: 2, maxLength: 4, selector: (v) => v.id }),
      metrics: fc.uniqueArray(idArb, { maxLength: 3 }),
      guardrails: fc.uniqueArray(idArb, { maxLength: 2 }),
    },
    { requiredKeys: ['id', 'app', 'status', 'variants'] },
  );

/** A config with unique app and test ids (not necessarily valid in every rule). */
export const configArb: fc.Arbitrary<Data> = fc
  .uniqueArray(appArb, { maxLength: 6, selector: (app) => app.id })
  .chain((apps) =>
    fc
      .uniqueArray(abTestArb(apps.map((app) => app.id as string)), {
        maxLength: 3,
        selector: (test) => test.id,
      })
      .map((tests) => {
        const config: Data = {};
        if (apps.length > 0 || tests.length > 0) config.apps = apps;
        if (tests.length > 0) config.ab_tests = tests;
        return config;
      }),
  );

/** A config that satisfies every validation rule. */
export const validConfigArb: fc.Arbitrary<Data> = configArb.map((config) => {
  const apps = ((config.apps as Data[] | undefined) ?? []).map((app): Data => ({
    ...app,
    name: app.name === '' ? 'Unnamed' : app.name,
  }));
  const appIds = new Set(apps.map((app) => app.id));
  const tests = ((config.ab_tests as Data[] | undefined) ?? [])
    .filter((test) => appIds.has(test.app))
    .map((test) => {
      const variants = (test.variants as Data[]).map((variant, index, all) => ({
        ...variant,
        // Weights that sum to 100; overrides only of settings the app defines.
        weight:
          index === all.length - 1
            ? 100 - (all.length - 1) * Math.floor(100 / all.length)
            : Math.floor(100 / all.length),
        settings: {},
      }));
      const fixed: Data = { ...test, variants };
      // A metric is a goal or a guardrail of a test, not both.
      if (Array.isArray(test.guardrails) && Array.isArray(test.metrics)) {
        const goals = test.metrics as unknown[];
        fixed.guardrails = test.guardrails.filter((id) => !goals.includes(id));
      }
      if (test.status === 'promoted') fixed.winner = (variants[0] as Data).id;
      const app = apps.find((candidate) => candidate.id === test.app);
      if (app && test.status === 'running') app.enabled = true;
      return fixed;
    });
  const result: Data = { ...config };
  if (config.apps) result.apps = apps;
  if (tests.length > 0) result.ab_tests = tests;
  else delete result.ab_tests;
  return result;
});

/** One change a person might make in the editor. */
type Edit = (config: Data) => void;

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  appArb.map((app): Edit => (config) => {
    const apps = ((config.apps as Data[] | undefined) ?? []).filter((a) => a.id !== app.id);
    config.apps = [...apps, app];
  }),
  fc.nat().map((n): Edit => (config) => {
    const apps = config.apps as Data[] | undefined;
    if (apps && apps.length > 0) apps.splice(n % apps.length, 1);
  }),
  fc
    .tuple(fc.nat(), fc.constantFrom('name', 'platform', 'enabled', 'colour'), scalarArb)
    .map(([n, field, value]): Edit => (config) => {
      const apps = config.apps as Data[] | undefined;
      if (apps && apps.length > 0) (apps[n % apps.length] as Data)[field] = value;
    }),
  fc
    .tuple(fc.nat(), fc.constantFrom('enabled', 'settings', 'name'))
    .map(([n, field]): Edit => (config) => {
      const apps = config.apps as Data[] | undefined;
      if (apps && apps.length > 0) Reflect.deleteProperty(apps[n % apps.length] as Data, field);
    }),
  fc
    .tuple(fc.nat(), settingKeyArb, fc.option(scalarArb))
    .map(([n, key, value]): Edit => (config) => {
      const apps = config.apps as Data[] | undefined;
      if (!apps || apps.length === 0) return;
      const app = apps[n % apps.length] as Data;
      const settings = { ...((app.settings as Data | undefined) ?? {}) };
      if (value === null) Reflect.deleteProperty(settings, key);
      else settings[key] = value;
      app.settings = settings;
    }),
  abTestArb([]).map((test): Edit => (config) => {
    const tests = ((config.ab_tests as Data[] | undefined) ?? []).filter((t) => t.id !== test.id);
    config.ab_tests = [...tests, test];
  }),
  fc.nat().map((n): Edit => (config) => {
    const tests = config.ab_tests as Data[] | undefined;
    if (tests && tests.length > 0) tests.splice(n % tests.length, 1);
  }),
  fc
    .tuple(fc.nat(), fc.constantFrom('status', 'description', 'winner'), scalarArb)
    .map(([n, field, value]): Edit => (config) => {
      const tests = config.ab_tests as Data[] | undefined;
      if (tests && tests.length > 0) (tests[n % tests.length] as Data)[field] = value;
    }),
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 100 })).map(([n, weight]): Edit => (config) => {
    const tests = config.ab_tests as Data[] | undefined;
    if (!tests || tests.length === 0) return;
    const variants = (tests[n % tests.length] as Data).variants as Data[];
    (variants[n % variants.length] as Data).weight = weight;
  }),
  // Keys a JSON Pointer must escape, and values of every kind, at the top level. Values as
  // they travel in a request: through JSON, which has no -0 (fc.jsonValue makes one).
  fc
    .tuple(
      fc.constantFrom('notes', 'a/b', 'm~n', 'x y'),
      fc.option(fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)))),
    )
    .map(([key, value]): Edit => (config) => {
      if (value === null) Reflect.deleteProperty(config, key);
      else config[key] = value;
    }),
);

/** A short sequence of edits; some reorder a list (an app re-added moves to the end). */
export const editsArb = fc.array(editArb, { maxLength: 6 });

export function applyEdits(config: Data, edits: readonly Edit[]): Data {
  const copy = structuredClone(config);
  for (const edit of edits) edit(copy);
  return copy;
}
