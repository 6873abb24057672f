/**
 * A refused A/B test request, in the form's terms: what the server said about one field of
 * the test goes beside that field; the rest is listed at the form.
 */
import type { ValidationIssue } from '../../../contract/validation';
import { ApiProblem } from '../../lib/api-client';

/** The form fields a server message can be about. */
export type TestFieldName = 'id' | 'app' | 'description' | 'winner' | VariantFieldName;

export type VariantFieldName = `variants.${number}.${'id' | 'weight'}`;

export function isVariantField(field: TestFieldName): field is VariantFieldName {
  return field.startsWith('variants.');
}

const FIELD_PATH = /^\/(id|app|description|winner|variants\/(\d+)\/(id|weight))$/;

/**
 * The field a JSON Pointer names, below `prefix` (the test's pointer in the config, or its
 * item's pointer in the request); null for anything else.
 */
export function fieldOfPointer(pointer: string, prefix: string): TestFieldName | null {
  if (!pointer.startsWith(`${prefix}/`)) return null;
  const match = FIELD_PATH.exec(pointer.slice(prefix.length));
  if (!match) return null;
  const [, whole, variant, key] = match;
  if (variant !== undefined && key !== undefined) {
    return `variants.${Number(variant)}.${key as 'id' | 'weight'}`;
  }
  return whole as 'id' | 'app' | 'description' | 'winner';
}

export interface FieldMessage {
  readonly field: TestFieldName;
  readonly message: string;
}

/**
 * What a problem says about fields: its request `errors` below the item's pointer, and the
 * errors of its validation report below the test's pointer.
 */
export function fieldMessagesOf(
  error: unknown,
  pointers: { readonly item: string; readonly test: string | null },
): FieldMessage[] {
  if (!(error instanceof ApiProblem)) return [];
  const fromRequest = error.errors.flatMap(({ path, message }) => {
    const field = fieldOfPointer(path, pointers.item);
    return field ? [{ field, message }] : [];
  });
  const { test } = pointers;
  const fromReport =
    test === null
      ? []
      : (error.validation?.issues ?? []).flatMap((issue) => {
          const field = issue.severity === 'warning' ? null : fieldOfPointer(issue.path, test);
          return field ? [{ field, message: issue.message }] : [];
        });
  return [...fromRequest, ...fromReport];
}

/** The issues of a report that concern one test (its pointer and below). */
export function issuesOfTest(
  issues: readonly ValidationIssue[],
  testPointer: string,
): ValidationIssue[] {
  return issues.filter(
    (issue) => issue.path === testPointer || issue.path.startsWith(`${testPointer}/`),
  );
}
