/**
 * The metric forms' values (text as typed) and rules in words, turned into the contract's
 * requests: the create form's output is checked by the contract's createMetricSchema too,
 * and an edit sends only what changed (checked by updateMetricSchema when sent).
 */
import { ID_PATTERN } from '../../../contract/config-document';
import {
  createMetricSchema,
  DEFAULT_WINDOW_HOURS,
  MAX_EVENT_NAME_LENGTH,
  MAX_METRIC_NAME_LENGTH,
  MAX_WINDOW_HOURS,
  METRIC_KINDS,
  type CreateMetricRequest,
  type Metric,
  type MetricKind,
  type UpdateMetricRequest,
} from '../../../contract/experiments';
import { z } from '../../../contract/zod';
import { trimmedText } from '../../components/form-rules';

export interface MetricFormValues {
  id: string;
  name: string;
  kind: string;
  event: string;
  window_hours: string;
  inverse: boolean;
  cap: string;
}

export const KIND_WORDS: Record<MetricKind, string> = {
  binomial: 'Conversion: did the event at least once',
  count: 'Count: how many times',
  mean: 'Mean: the sum of the event’s values (revenue)',
};

export const NEW_METRIC: MetricFormValues = {
  id: '',
  name: '',
  kind: 'binomial',
  event: '',
  window_hours: String(DEFAULT_WINDOW_HOURS),
  inverse: false,
  cap: '',
};

export function valuesOfMetric(metric: Metric): MetricFormValues {
  return {
    id: metric.id,
    name: metric.name,
    kind: metric.kind,
    event: metric.event,
    window_hours: String(metric.window_hours),
    inverse: metric.inverse,
    cap: metric.cap === null ? '' : String(metric.cap),
  };
}

const WINDOW_WORDS = `Enter a whole number of hours, 1 to ${MAX_WINDOW_HOURS}.`;

function isWindow(text: string): boolean {
  const hours = Number(text);
  return /^\d+$/.test(text) && hours >= 1 && hours <= MAX_WINDOW_HOURS;
}

function isCap(text: string): boolean {
  return text === '' || (Number.isFinite(Number(text)) && Number(text) > 0);
}

const definition = {
  name: trimmedText(MAX_METRIC_NAME_LENGTH, 'Name the metric.'),
  kind: z.enum(METRIC_KINDS, { error: 'Choose what the metric measures.' }),
  event: trimmedText(MAX_EVENT_NAME_LENGTH, 'Name the event the app tracks.'),
  window_hours: z.string().check(z.trim(), z.refine(isWindow, WINDOW_WORDS)),
  inverse: z.boolean(),
  cap: z.string().check(z.trim(), z.refine(isCap, 'Enter a number above 0, or nothing.')),
};

type Definition = Omit<CreateMetricRequest, 'id'>;

function definitionOf(values: {
  name: string;
  kind: MetricKind;
  event: string;
  window_hours: string;
  inverse: boolean;
  cap: string;
}): Required<Omit<Definition, 'cap'>> & { cap: number | null } {
  return {
    name: values.name,
    kind: values.kind,
    event: values.event,
    window_hours: Number(values.window_hours),
    inverse: values.inverse,
    cap: values.cap === '' ? null : Number(values.cap),
  };
}

export const createMetricFormSchema = z.pipe(
  z.pipe(
    z.object({
      id: z
        .string()
        .check(
          z.trim(),
          z.regex(
            new RegExp(ID_PATTERN),
            'Lowercase letters, digits and -, starting with a letter (at most 63).',
          ),
        ),
      ...definition,
    }),
    z.transform(({ id, ...values }): CreateMetricRequest => {
      const { cap, ...rest } = definitionOf(values);
      return { id, ...rest, ...(cap === null ? {} : { cap }) };
    }),
  ),
  createMetricSchema,
);

/** The edit form: its output is the change, only the fields that differ from `metric`. */
export function updateMetricFormSchema(metric: Metric) {
  return z.pipe(
    z.object({ id: z.string(), ...definition }),
    z.transform(({ id: _id, ...values }): UpdateMetricRequest => {
      const next = definitionOf(values);
      const change: UpdateMetricRequest = {};
      if (next.name !== metric.name) change.name = next.name;
      if (next.kind !== metric.kind) change.kind = next.kind;
      if (next.event !== metric.event) change.event = next.event;
      if (next.window_hours !== metric.window_hours) change.window_hours = next.window_hours;
      if (next.inverse !== metric.inverse) change.inverse = next.inverse;
      if (next.cap !== metric.cap) change.cap = next.cap;
      return change;
    }),
  );
}

/** Where the server's field errors (JSON Pointers into the body) go in the form. */
export const METRIC_FIELDS = {
  '/id': 'id',
  '/name': 'name',
  '/kind': 'kind',
  '/event': 'event',
  '/window_hours': 'window_hours',
  '/inverse': 'inverse',
  '/cap': 'cap',
} as const;
