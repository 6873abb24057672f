/**
 * Edit operations (docs/config.md): each operation object holds exactly one action
 * key whose value is a non-empty array of items.
 *
 * Items are checked only as far as they must be interpreted (docs/config.md): an object, a
 * string `id` for app and test actions, a JSON Pointer `path` for set/unset, a `variant` for
 * promote. Every other value is written as given and judged by validation, so these item
 * schemas keep unknown keys and accept any value in the other fields, as long as it nests
 * at most MAX_NESTING_DEPTH levels (limits.ts).
 */
import { described, z } from './zod';
import type { AbTest, AbTestStatus, App, Settings, Variant } from './config-document';
import { MAX_NESTING_DEPTH, MAX_POINTER_LENGTH, nestsDeeperThan } from './limits';

/** RFC 6901: "" or "/"-separated tokens in which "~" is followed by 0 or 1. */
export const JSON_POINTER_PATTERN = '^(/([^~/]|~[01])*)*$';

export const jsonPointerSchema = described(
  z.string().check(
    // Aborts: nothing else reads a pointer past the limit.
    z.maxLength(MAX_POINTER_LENGTH, {
      message: `is over ${MAX_POINTER_LENGTH} characters, the limit for a JSON Pointer`,
      abort: true,
    }),
    z.regex(new RegExp(JSON_POINTER_PATTERN), 'must be a JSON Pointer such as /apps/0/name'),
  ),
  `A JSON Pointer (RFC 6901) into the config document, at most ${MAX_POINTER_LENGTH} characters.`,
);

/** Every field of an item holds a value nested at most MAX_NESTING_DEPTH levels. */
const boundedNesting = z.superRefine((item: Readonly<Record<string, unknown>>, ctx) => {
  for (const [key, value] of Object.entries(item)) {
    if (nestsDeeperThan(value, MAX_NESTING_DEPTH)) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        input: value,
        message: `nests deeper than ${MAX_NESTING_DEPTH} levels, the limit for a value`,
      });
    }
  }
});

const id = described(z.string(), 'The id of the app or A/B test the item acts on.');
const anyValue = (description: string) => described(z.optional(z.unknown()), description);

export const createAppItemSchema = z
  .looseObject({
    id,
    name: anyValue('1..100 characters'),
    platform: anyValue('web, ios, android or server'),
    enabled: anyValue('boolean; default true'),
    settings: anyValue('map of key -> string | number | boolean'),
  })
  .check(boundedNesting)
  .register(z.globalRegistry, { id: 'CreateAppItem' });

export const updateAppItemSchema = z
  .looseObject({
    id,
    name: anyValue('new name'),
    platform: anyValue('new platform'),
    enabled: anyValue('new enabled flag'),
    settings: anyValue('keys to set; a null value removes that key'),
  })
  .check(boundedNesting)
  .register(z.globalRegistry, { id: 'UpdateAppItem' });

export const idItemSchema = z
  .looseObject({ id })
  .check(boundedNesting)
  .register(z.globalRegistry, { id: 'IdItem' });

export const setItemSchema = z
  .looseObject({
    path: jsonPointerSchema,
    value: described(
      z.unknown(),
      `Any JSON value nested at most ${MAX_NESTING_DEPTH} levels deep; written as given.`,
    ),
  })
  .check(boundedNesting)
  .register(z.globalRegistry, { id: 'SetItem' });

export const unsetItemSchema = z
  .looseObject({
    path: jsonPointerSchema.check(
      z.refine((path) => path !== '', 'cannot unset the whole document'),
    ),
  })
  .check(boundedNesting)
  .register(z.globalRegistry, { id: 'UnsetItem' });

export const createAbTestItemSchema = z
  .looseObject({
    id,
    app: anyValue('the id of an app of this config'),
    description: anyValue('up to 500 characters'),
    variants: anyValue('2..10 variants {id, weight, settings?} whose weights sum to 100'),
  })
  .check(boundedNesting)
  .register(z.globalRegistry, { id: 'CreateAbTestItem' });

export const updateAbTestItemSchema = z
  .looseObject({
    id,
    description: anyValue('new description (draft or running tests)'),
    variants: anyValue('new variants (draft tests only)'),
    metrics: anyValue('new goal metric ids, the first the primary one; null removes them'),
    guardrails: anyValue('new guardrail metric ids; null removes them'),
  })
  .check(boundedNesting)
  .register(z.globalRegistry, { id: 'UpdateAbTestItem' });

export const promoteAbTestItemSchema = z
  .looseObject({
    id,
    variant: described(z.string(), 'The winning variant, whose settings are copied.'),
  })
  .check(boundedNesting)
  .register(z.globalRegistry, { id: 'PromoteAbTestItem' });

/** How many text changes one `edit_text` item may hold. */
export const MAX_TEXT_CHANGES = 1_000;

export const textChangeSchema = z
  .strictObject({
    offset: described(
      z.int().check(z.minimum(0)),
      'Where the change starts, in UTF-16 code units from the start of the saved text.',
    ),
    delete_count: described(
      z.int().check(z.minimum(0)),
      'How many UTF-16 code units of the saved text it replaces.',
    ),
    insert: described(z.string(), 'The text put in their place.'),
  })
  .register(z.globalRegistry, { id: 'TextChange' });

export const editTextItemSchema = z
  .strictObject({
    changes: described(
      z.array(textChangeSchema).check(
        z.maxLength(MAX_TEXT_CHANGES, `at most ${MAX_TEXT_CHANGES} changes`),
        z.superRefine((changes, ctx) => {
          for (let index = 1; index < changes.length; index++) {
            const before = changes[index - 1] as TextChange;
            const change = changes[index] as TextChange;
            if (change.offset < before.offset + before.delete_count) {
              ctx.addIssue({
                code: 'custom',
                path: [index, 'offset'],
                input: change.offset,
                message: 'changes must be in order of offset and must not overlap',
              });
              return;
            }
          }
        }),
      ),
      'Changes to the saved text, in order of offset, none overlapping; offsets refer to the saved text.',
    ),
  })
  .register(z.globalRegistry, {
    id: 'EditTextItem',
    description:
      'The text the person typed, as changes to the saved text. Applied after the other operations; the result must parse to exactly the data they produce.',
  });

export type TextChange = z.infer<typeof textChangeSchema>;

const items = <T extends z.ZodMiniType>(item: T) => z.array(item).check(z.minLength(1));

/** Every action key and the schema of its items. */
export const actionItemSchemas = {
  create_app: createAppItemSchema,
  update_app: updateAppItemSchema,
  delete_app: idItemSchema,
  set: setItemSchema,
  unset: unsetItemSchema,
  create_ab_test: createAbTestItemSchema,
  update_ab_test: updateAbTestItemSchema,
  start_ab_test: idItemSchema,
  end_ab_test: idItemSchema,
  promote_ab_test: promoteAbTestItemSchema,
  delete_ab_test: idItemSchema,
  edit_text: editTextItemSchema,
} as const;

export type ActionKey = keyof typeof actionItemSchemas;
export const ACTION_KEYS = Object.keys(actionItemSchemas) as ActionKey[];

/** Lifecycle actions publish their result (docs/config.md); the others land in a draft. */
export const LIFECYCLE_ACTIONS = [
  'update_ab_test',
  'start_ab_test',
  'end_ab_test',
  'promote_ab_test',
  'delete_ab_test',
] as const satisfies readonly ActionKey[];
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];

/**
 * Which statuses each lifecycle step may start from (docs/config.md). Part of the contract so
 * that a client offers exactly the steps the server allows.
 */
export const LIFECYCLE_TRANSITIONS: Readonly<Record<LifecycleAction, readonly AbTestStatus[]>> = {
  update_ab_test: ['draft', 'running'],
  start_ab_test: ['draft'],
  end_ab_test: ['running'],
  promote_ab_test: ['running', 'ended'],
  delete_ab_test: ['draft', 'ended', 'promoted'],
};

/** Ordinary actions that may come without a `summary`. */
export const SUMMARY_OPTIONAL_ACTIONS = ['create_ab_test'] as const satisfies readonly ActionKey[];

export function isLifecycleAction(key: string): key is LifecycleAction {
  return (LIFECYCLE_ACTIONS as readonly string[]).includes(key);
}

/**
 * One operation on the wire: an object with all action keys optional, no other key, and a
 * check that exactly one is present. (A union of one-key objects would describe the same
 * set, but its errors would not say which key or item is wrong.)
 */
export const operationSchema = z
  .strictObject({
    create_app: z.optional(items(createAppItemSchema)),
    update_app: z.optional(items(updateAppItemSchema)),
    delete_app: z.optional(items(idItemSchema)),
    set: z.optional(items(setItemSchema)),
    unset: z.optional(items(unsetItemSchema)),
    create_ab_test: z.optional(items(createAbTestItemSchema)),
    update_ab_test: z.optional(items(updateAbTestItemSchema)),
    start_ab_test: z.optional(items(idItemSchema)),
    end_ab_test: z.optional(items(idItemSchema)),
    promote_ab_test: z.optional(items(promoteAbTestItemSchema)),
    delete_ab_test: z.optional(items(idItemSchema)),
    edit_text: z.optional(
      z.array(editTextItemSchema).check(z.minLength(1), z.maxLength(1, 'holds exactly one item')),
    ),
  })
  .register(z.globalRegistry, {
    id: 'Operation',
    description:
      'One typed edit operation: exactly one action key, whose value is a non-empty array of items.',
    minProperties: 1,
    maxProperties: 1,
  })
  .check(
    z.superRefine((operation, ctx) => {
      const keys = Object.keys(operation);
      if (keys.length !== 1) {
        ctx.addIssue({
          code: 'custom',
          message:
            keys.length === 0
              ? `an operation needs exactly one action key (one of ${ACTION_KEYS.join(', ')})`
              : `an operation holds exactly one action key, got ${keys.join(' and ')}`,
        });
      }
    }),
  );

type ItemOf<K extends ActionKey> = z.infer<(typeof actionItemSchemas)[K]>;

/** The precise type of one operation: exactly one action key. */
export type Operation = {
  [K in ActionKey]: Record<K, ItemOf<K>[]>;
}[ActionKey];

/** The action key of an operation that passed `operationSchema`. */
export function actionKeyOf(operation: Operation): ActionKey {
  return Object.keys(operation)[0] as ActionKey;
}

/** The items of an operation that passed `operationSchema`. */
export function itemsOf(operation: Operation): readonly Record<string, unknown>[] {
  return Object.values(operation)[0] as Record<string, unknown>[];
}

/** A typed builder per action, for clients that build requests from a valid config's types. */
export const operations = {
  createApp: (...apps: App[]): Operation => ({ create_app: apps }),
  updateApp: (
    ...changes: (Partial<Omit<App, 'settings'>> & {
      id: string;
      settings?: Record<string, Settings[string] | null>;
    })[]
  ): Operation => ({ update_app: changes }),
  deleteApp: (...ids: string[]): Operation => ({ delete_app: ids.map((appId) => ({ id: appId })) }),
  set: (path: string, value: unknown): Operation => ({ set: [{ path, value }] }),
  unset: (path: string): Operation => ({ unset: [{ path }] }),
  createAbTest: (
    ...tests: Pick<AbTest, 'id' | 'app' | 'description' | 'variants' | 'metrics' | 'guardrails'>[]
  ): Operation => ({
    create_ab_test: tests,
  }),
  updateAbTest: (
    ...changes: {
      id: string;
      description?: string;
      variants?: Variant[];
      metrics?: string[] | null;
      guardrails?: string[] | null;
    }[]
  ): Operation => ({ update_ab_test: changes }),
  startAbTest: (testId: string): Operation => ({ start_ab_test: [{ id: testId }] }),
  endAbTest: (testId: string): Operation => ({ end_ab_test: [{ id: testId }] }),
  promoteAbTest: (testId: string, variant: string): Operation => ({
    promote_ab_test: [{ id: testId, variant }],
  }),
  deleteAbTest: (testId: string): Operation => ({ delete_ab_test: [{ id: testId }] }),
  editText: (...changes: TextChange[]): Operation => ({ edit_text: [{ changes }] }),
};
