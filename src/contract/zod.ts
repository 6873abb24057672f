/**
 * The contract's zod: `zod/mini`, zod 4's functional API. The console parses every response
 * with these schemas, so they are part of its first page; the mini API lets the bundler keep
 * only the schema types and checks used here (classic zod carries every method and JSON
 * Schema generation on every schema: docs/architecture.md). The server
 * validates with the same schemas, and `z.toJSONSchema` makes the OpenAPI document from them.
 *
 * Metadata (ids and descriptions for OpenAPI) is added with `.register(z.globalRegistry, …)`
 * on a schema built for it, as classic zod's `.meta()` does. Not with the `z.meta()` check: a
 * check stays in the schema and runs again on every copy (`.check()`, `z.extend`), so a copy
 * of a schema with an id would carry the same id, which `z.toJSONSchema` refuses.
 */
import * as z from 'zod/mini';

// zod/mini leaves messages to the application ("Invalid input"); the classic build used to
// install English, and problem details and form messages say what is wrong in English.
z.config(z.locales.en());

export { z };

/** `schema` described for the OpenAPI document (classic zod's `.meta({ description })`). */
export function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

/** A whole number, at least `min`. */
export function wholeNumber(min: number) {
  return z.number().check(z.int(), z.minimum(min));
}
