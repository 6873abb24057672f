/**
 * Experiment results: the events apps send (exposures and metric events), the metrics an
 * account defines, and the results of an A/B test (docs/experiments.md).
 */
import { ID_PATTERN } from './config-document';
import { MAX_UNIT_ID_LENGTH } from './limits';
import { timestampSchema } from './timestamp';
import { described, wholeNumber, z } from './zod';

/** A batch of events holds at most this many; its body at most MAX_EVENTS_BODY_BYTES. */
export const MAX_EVENTS_PER_BATCH = 500;
export const MAX_EVENTS_BODY_BYTES = 256 * 1024;
/** The client's event id: a repeated id counts once for at least EVENT_DEDUPE_DAYS. */
export const MAX_EVENT_ID_LENGTH = 64;
export const EVENT_DEDUPE_DAYS = 7;
/** How far ahead of the server's clock an event's `at` may be, and how old. */
export const MAX_EVENT_AHEAD_MINUTES = 5;
export const MAX_EVENT_AGE_DAYS = 7;
export const MAX_EVENT_NAME_LENGTH = 100;

const unit = z.string().check(z.minLength(1), z.maxLength(MAX_UNIT_ID_LENGTH));
const eventId = described(
  z.string().check(z.minLength(1), z.maxLength(MAX_EVENT_ID_LENGTH)),
  'The client\u2019s id for this event: a repeated id is a duplicate and counts once.',
);
const eventName = z.string().check(z.minLength(1), z.maxLength(MAX_EVENT_NAME_LENGTH));

export const exposureEventSchema = z
  .strictObject({
    kind: z.literal('exposure'),
    test: z.string().check(z.minLength(1), z.maxLength(100)),
    variant: z.string().check(z.minLength(1), z.maxLength(100)),
    unit,
    at: timestampSchema(),
    id: eventId,
  })
  .register(z.globalRegistry, { id: 'ExposureEvent' });

export const metricEventSchema = z
  .strictObject({
    kind: z.literal('metric'),
    event: eventName,
    unit,
    value: z.optional(
      described(z.number().check(z.refine(Number.isFinite)), 'A finite number; default 1.'),
    ),
    at: timestampSchema(),
    id: eventId,
  })
  .register(z.globalRegistry, { id: 'MetricEvent' });

export const experimentEventSchema = z.discriminatedUnion('kind', [
  exposureEventSchema,
  metricEventSchema,
]);
export type ExperimentEvent = z.infer<typeof experimentEventSchema>;
export type ExposureEvent = z.infer<typeof exposureEventSchema>;
export type MetricEvent = z.infer<typeof metricEventSchema>;

/**
 * The batch: each event is checked on its own (one bad event never refuses the others), so
 * the body's schema looks only at the list.
 */
export const eventBatchSchema = z
  .strictObject({
    events: described(
      z.array(z.unknown()).check(z.maxLength(MAX_EVENTS_PER_BATCH)),
      `At most ${MAX_EVENTS_PER_BATCH} exposures and metric events (ExposureEvent, MetricEvent).`,
    ),
  })
  .register(z.globalRegistry, { id: 'EventBatch' });

/** Why one event of a batch was not taken. */
export const EVENT_REJECTIONS = [
  'invalid',
  'too_old',
  'in_future',
  'not_running',
  'unknown_variant',
] as const;
export type EventRejection = (typeof EVENT_REJECTIONS)[number];

export const eventBatchAnswerSchema = z
  .strictObject({
    accepted: described(
      wholeNumber(0),
      'Events stored, assignment mismatches included (kept apart from results).',
    ),
    duplicates: described(wholeNumber(0), 'Events whose id was seen before: counted once.'),
    rejected: z.array(
      z.strictObject({
        index: described(wholeNumber(0), 'The event\u2019s place in the batch, from 0.'),
        code: described(
          z.enum(EVENT_REJECTIONS),
          'invalid: not an exposure or metric event of the documented shape; too_old: `at` more than 7 days ago; in_future: `at` more than 5 minutes ahead; not_running: no running A/B test with this id; unknown_variant: the test has no such variant.',
        ),
      }),
    ),
  })
  .register(z.globalRegistry, { id: 'EventBatchAnswer' });
export type EventBatchAnswer = z.infer<typeof eventBatchAnswerSchema>;

/** Metrics. */
export const METRIC_KINDS = ['binomial', 'count', 'mean'] as const;
export type MetricKind = (typeof METRIC_KINDS)[number];
export const DEFAULT_WINDOW_HOURS = 72;
export const MAX_WINDOW_HOURS = 2_160;
export const MAX_METRIC_NAME_LENGTH = 100;

const metricId = described(
  z.string().check(z.regex(new RegExp(ID_PATTERN), 'a lowercase letter, then a-z, 0-9 and -')),
  'How A/B tests name the metric in the config: a lowercase letter, then up to 62 of a-z, 0-9 and -.',
);
const metricName = z
  .string()
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(MAX_METRIC_NAME_LENGTH));
const metricKind = described(
  z.enum(METRIC_KINDS),
  'binomial: the unit did the event at least once; count: how many times; mean: the sum of the events\u2019 values per unit (revenue).',
);
const windowHours = described(
  z.number().check(z.int(), z.minimum(1), z.maximum(MAX_WINDOW_HOURS)),
  `Only events from the unit\u2019s first exposure until this many hours later count; 1 to ${MAX_WINDOW_HOURS}, default ${DEFAULT_WINDOW_HOURS}.`,
);
const inverse = described(z.boolean(), 'Lower is better (errors, latency).');
const cap = described(
  z.number().check(z.refine(Number.isFinite), z.positive()),
  'A unit\u2019s value above it counts as the cap (tames outliers).',
);

export const createMetricSchema = z
  .strictObject({
    id: metricId,
    name: metricName,
    kind: metricKind,
    event: eventName,
    window_hours: z.optional(windowHours),
    inverse: z.optional(inverse),
    cap: z.optional(cap),
  })
  .register(z.globalRegistry, { id: 'CreateMetric' });
export type CreateMetricRequest = z.infer<typeof createMetricSchema>;

export const updateMetricSchema = z
  .strictObject({
    name: z.optional(metricName),
    kind: z.optional(metricKind),
    event: z.optional(eventName),
    window_hours: z.optional(windowHours),
    inverse: z.optional(inverse),
    cap: z.optional(z.nullable(cap)),
  })
  .register(z.globalRegistry, { id: 'UpdateMetric', minProperties: 1 })
  .check(
    z.refine(
      (update) => Object.keys(update).length > 0,
      'name the fields to change: name, kind, event, window_hours, inverse, cap',
    ),
  );
export type UpdateMetricRequest = z.infer<typeof updateMetricSchema>;

export const METRIC_ROLES = ['goal', 'guardrail'] as const;
export type MetricRole = (typeof METRIC_ROLES)[number];

export const metricSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    kind: z.enum(METRIC_KINDS),
    event: z.string(),
    window_hours: z.number(),
    inverse: z.boolean(),
    cap: z.nullable(z.number()),
    used_by: described(
      z.array(z.strictObject({ test_id: z.string(), role: z.enum(METRIC_ROLES) })),
      'The A/B tests of the live config that name this metric.',
    ),
    created_at: timestampSchema(),
    updated_at: timestampSchema(),
  })
  .register(z.globalRegistry, { id: 'Metric' });
export type Metric = z.infer<typeof metricSchema>;
export const metricListSchema = z.array(metricSchema);
export const metricParamsSchema = z.strictObject({
  metric_id: z.string().check(z.maxLength(100)),
});

/** Results. */
export const ENGINES = ['bayesian', 'frequentist'] as const;
export type Engine = (typeof ENGINES)[number];
export const CORRECTIONS = ['none', 'holm', 'bh'] as const;
export type Correction = (typeof CORRECTIONS)[number];
export const VERDICTS = [
  'control',
  'winning',
  'losing',
  'inconclusive',
  'not_enough_data',
  'no_result',
] as const;
export type Verdict = (typeof VERDICTS)[number];
/** How old cached results may be before the background job computes them again. */
export const RESULTS_MAX_AGE_MINUTES = 5;

const booleanQuery = z.enum(['true', 'false']);

export const resultsQuerySchema = z.strictObject({
  phase: z.optional(
    described(
      z.string().check(z.regex(/^[1-9][0-9]{0,5}$/, 'a phase number, from 1')),
      'The phase to read; default the current one.',
    ),
  ),
  engine: z.optional(described(z.enum(ENGINES), 'Default bayesian.')),
  sequential: z.optional(
    described(
      booleanQuery,
      'Frequentist only: always-valid confidence sequences and p-values, for looking every day.',
    ),
  ),
  correction: z.optional(
    described(
      z.enum(CORRECTIONS),
      'Frequentist only: Holm or Benjamini–Hochberg across goal metrics × variants (never guardrails).',
    ),
  ),
});
export type ResultsQuery = z.infer<typeof resultsQuerySchema>;
export const testParamsSchema = z.strictObject({
  test_id: z.string().check(z.maxLength(100)),
});

const interval = described(
  z.tuple([z.number(), z.number()]),
  'Lower and upper bound of the relative lift (0.05 = +5%).',
);

export const phaseSchema = z
  .strictObject({
    number: wholeNumber(1),
    started_at: timestampSchema(),
    ended_at: z.nullable(timestampSchema()),
    weights: described(
      z.record(z.string(), z.number()),
      'Each variant\u2019s weight during the phase.',
    ),
  })
  .register(z.globalRegistry, { id: 'ExperimentPhase' });
export type ExperimentPhase = z.infer<typeof phaseSchema>;

export const resultsVariantSchema = z.strictObject({
  id: z.string(),
  units: wholeNumber(0),
  value: described(
    z.nullable(z.number()),
    'The mean per exposed unit (a conversion rate for binomial metrics); null with no units.',
  ),
  lift: z.optional(z.strictObject({ estimate: z.number(), interval })),
  chance_to_win: z.optional(
    described(z.number(), 'Bayesian: the chance that this variant beats the control (0–1).'),
  ),
  risk: z.optional(
    described(z.number(), 'Bayesian: the expected relative loss should this variant be chosen.'),
  ),
  p_value: z.optional(described(z.number(), 'Frequentist: two-sided p-value.')),
  verdict: z.enum(VERDICTS),
  note: z.optional(
    described(z.string(), 'Why there is no verdict or no result, in words, when there is none.'),
  ),
});
export type ResultsVariant = z.infer<typeof resultsVariantSchema>;

export const resultsMetricSchema = z.strictObject({
  id: z.string(),
  name: z.nullable(described(z.string(), 'null when no metric has this id any more.')),
  kind: z.nullable(z.enum(METRIC_KINDS)),
  role: z.enum(METRIC_ROLES),
  inverse: z.boolean(),
  variants: z.array(resultsVariantSchema),
});
export type ResultsMetric = z.infer<typeof resultsMetricSchema>;

export const resultsHealthSchema = z.strictObject({
  srm_p: described(
    z.nullable(z.number()),
    'Chi-square p-value of units per variant against the weights; null below 8 units per variant.',
  ),
  srm_warning: described(z.boolean(), 'srm_p below 0.001.'),
  multiple_exposures: described(
    wholeNumber(0),
    'Units exposed to more than one variant: left out of the results.',
  ),
  multiple_exposures_warning: described(z.boolean(), 'At least 1% of the exposed units.'),
  mismatches: described(
    wholeNumber(0),
    'Exposures naming a variant other than the one assignment gives the unit: never counted.',
  ),
});
export type ResultsHealth = z.infer<typeof resultsHealthSchema>;

export const experimentResultsSchema = z
  .strictObject({
    test: z.strictObject({
      id: z.string(),
      app: z.nullable(z.string()),
      status: described(z.string(), 'In the live config; "missing" once it left it.'),
      started_at: z.nullable(timestampSchema()),
      ended_at: z.nullable(timestampSchema()),
    }),
    phase: phaseSchema,
    phases: described(z.array(phaseSchema), 'Every phase, the first first.'),
    computed_at: described(
      z.nullable(timestampSchema()),
      'When the background job last computed these; null before it first has.',
    ),
    engine: z.enum(ENGINES),
    sequential: z.boolean(),
    correction: z.enum(CORRECTIONS),
    simulated: described(z.boolean(), 'The events were made up (the demo).'),
    units: z.array(
      z.strictObject({
        variant: z.string(),
        units: wholeNumber(0),
        expected_share: described(z.number(), 'The variant\u2019s weight ÷ 100.'),
      }),
    ),
    health: resultsHealthSchema,
    metrics: z.array(resultsMetricSchema),
  })
  .register(z.globalRegistry, { id: 'ExperimentResults' });
export type ExperimentResults = z.infer<typeof experimentResultsSchema>;

export const timeseriesPointSchema = z.strictObject({
  date: described(z.string(), 'The day (UTC), YYYY-MM-DD: the results as they stood at its end.'),
  units: wholeNumber(0),
  lift: z.nullable(z.strictObject({ estimate: z.number(), interval })),
});

export const experimentTimeseriesSchema = z
  .strictObject({
    test: z.string(),
    phase: wholeNumber(1),
    engine: z.enum(ENGINES),
    metrics: z.array(
      z.strictObject({
        id: z.string(),
        variants: z.array(
          z.strictObject({ id: z.string(), points: z.array(timeseriesPointSchema) }),
        ),
      }),
    ),
  })
  .register(z.globalRegistry, { id: 'ExperimentTimeseries' });
export type ExperimentTimeseries = z.infer<typeof experimentTimeseriesSchema>;

export const refreshAnswerSchema = z
  .strictObject({
    test: z.string(),
    requested_at: timestampSchema(),
    computed_at: z.nullable(timestampSchema()),
  })
  .register(z.globalRegistry, { id: 'ResultsRefresh' });
