/** What the forms share besides their fields: rules for the schemas, the server's field errors. */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { z } from '../../contract/zod';
import { ApiProblem } from '../lib/api-client';

/**
 * Trimmed text of at most `max` characters; `required`: the words for an empty field.
 * Rules of a field's own follow in a `.check` of their own.
 */
export function trimmedText(max: number, required?: string) {
  const text = z.string().check(z.trim());
  return (required === undefined ? text : text.check(z.minLength(1, required))).check(
    z.maxLength(max, `Use at most ${max} characters.`),
  );
}

/**
 * Puts the server's errors about the form's fields (`fields`: JSON pointer to field name)
 * beside those fields. False when there were none, so the caller says the failure in words.
 */
export function placeServerErrors<Input extends FieldValues>(
  error: unknown,
  fields: Readonly<Partial<Record<string, Path<Input>>>>,
  setError: UseFormSetError<Input>,
): boolean {
  if (!(error instanceof ApiProblem)) return false;
  let placed = false;
  for (const { path, message } of error.errors) {
    const field = fields[path];
    if (field === undefined) continue;
    setError(field, { message });
    placed = true;
  }
  return placed;
}
