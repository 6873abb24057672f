/**
 * The JSON Schema (draft 2020-12) of a config (docs/config.md).
 *
 * One schema serves three readers: the console gives it to monaco-yaml for completion, hover
 * and instant checks; the service serves it at GET /config/schema; and the validator
 * (validate/schema-rules.ts) interprets it over the YAML syntax tree, so the editor and the
 * server cannot disagree about the shape. Rules a JSON Schema cannot say (unique ids, weights
 * summing to 100, ...) live in validate/semantic-rules.ts.
 *
 * `x-issue-code` is an annotation of ours: the issue code to report when this node's
 * size keywords (minItems/maxItems) fail, where the generic code would say less.
 */
import {
  AB_TEST_DESCRIPTION_MAX_LENGTH,
  AB_TEST_STATUSES,
  APP_NAME_MAX_LENGTH,
  ID_PATTERN,
  MAX_TEST_METRICS,
  MAX_VARIANTS,
  MIN_VARIANTS,
  PLATFORMS,
  SETTING_KEY_PATTERN,
  WEIGHTS_TOTAL,
} from '../contract/config-document';

/** The subset of JSON Schema that the config schema uses and the validator interprets. */
export interface JsonSchema {
  $schema?: string;
  $id?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  title?: string;
  description?: string;
  markdownDescription?: string;
  type?: JsonType | JsonType[];
  enum?: readonly (string | number | boolean)[];
  pattern?: string;
  format?: 'date-time';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  examples?: readonly unknown[];
  'x-issue-code'?: string;
}

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

const id = (what: string): JsonSchema => ({
  type: 'string',
  pattern: ID_PATTERN,
  description: `${what}: a lowercase letter, then up to 62 of a-z, 0-9 and -.`,
});

/** A test's list of metric ids: at most MAX_TEST_METRICS, each named once (semantic-rules.ts). */
const metricList = (description: string): JsonSchema => ({
  type: 'array',
  maxItems: MAX_TEST_METRICS,
  'x-issue-code': 'ab_test.metric_count',
  description: `${description} Up to ${MAX_TEST_METRICS} metric ids, each once; an id that is not one of the account's metrics is a warning.`,
  items: id('A metric id'),
});

const settings = (description: string): JsonSchema => ({
  type: 'object',
  description,
  propertyNames: { pattern: SETTING_KEY_PATTERN },
  additionalProperties: { $ref: '#/$defs/settingValue' },
});

const timestamp = (description: string): JsonSchema => ({
  type: 'string',
  format: 'date-time',
  description: `${description} (ISO 8601, UTC). Set by lifecycle operations.`,
});

export const configJsonSchema: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://provisioning.local/schemas/config.json',
  title: 'Provisioning config',
  description: "An account's config: the apps it provisions and their A/B tests.",
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    apps: {
      type: 'array',
      description: 'Apps this account provisions.',
      items: { $ref: '#/$defs/app' },
    },
    ab_tests: {
      type: 'array',
      description: 'A/B tests of the apps. Their status changes only through lifecycle operations.',
      items: { $ref: '#/$defs/abTest' },
    },
  },
  $defs: {
    settingValue: {
      type: ['string', 'number', 'boolean'],
      description: 'A setting value: string, number or boolean.',
    },
    app: {
      type: 'object',
      description: 'An app.',
      required: ['id', 'name', 'platform'],
      additionalProperties: false,
      properties: {
        id: id('Unique app id'),
        name: {
          type: 'string',
          minLength: 1,
          maxLength: APP_NAME_MAX_LENGTH,
          description: `Display name, 1 to ${APP_NAME_MAX_LENGTH} characters.`,
        },
        platform: { enum: [...PLATFORMS], description: `One of ${PLATFORMS.join(', ')}.` },
        enabled: { type: 'boolean', default: true, description: 'Whether the app is on.' },
        settings: settings('Settings of the app: key -> string, number or boolean.'),
      },
    },
    variant: {
      type: 'object',
      description: 'A variant of a test.',
      required: ['id', 'weight'],
      additionalProperties: false,
      properties: {
        id: id('Variant id, unique within its test'),
        weight: {
          type: 'integer',
          minimum: 0,
          maximum: WEIGHTS_TOTAL,
          description: `Share of traffic, 0 to ${WEIGHTS_TOTAL}; a test's weights sum to ${WEIGHTS_TOTAL}.`,
        },
        settings: settings("Overrides of the app's settings for this variant."),
      },
    },
    abTest: {
      type: 'object',
      description: 'An A/B test of one app.',
      required: ['id', 'app', 'status', 'variants'],
      additionalProperties: false,
      properties: {
        id: id('Unique test id'),
        app: { type: 'string', description: 'The id of an app of this config.' },
        description: {
          type: 'string',
          maxLength: AB_TEST_DESCRIPTION_MAX_LENGTH,
          description: `What the test is about, up to ${AB_TEST_DESCRIPTION_MAX_LENGTH} characters.`,
        },
        status: {
          enum: [...AB_TEST_STATUSES],
          description: 'draft, running, ended or promoted; set by lifecycle operations.',
        },
        variants: {
          type: 'array',
          minItems: MIN_VARIANTS,
          maxItems: MAX_VARIANTS,
          'x-issue-code': 'ab_test.variant_count',
          description: `${MIN_VARIANTS} to ${MAX_VARIANTS} variants; weights sum to ${WEIGHTS_TOTAL}.`,
          items: { $ref: '#/$defs/variant' },
        },
        metrics: metricList('The goals the test is judged on, the first the primary one.'),
        guardrails: metricList("Metrics that must not get worse (never the test's goals)."),
        winner: { type: 'string', description: 'The winning variant; only when promoted.' },
        started_at: timestamp('When the test started'),
        ended_at: timestamp('When the test ended'),
      },
    },
  },
};
