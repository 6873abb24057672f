/**
 * Limits on what a request and a config may hold that bound the work of reading them: a JSON
 * Pointer's length and how deep values nest. Both are checked before anything walks the
 * value, so every walk of a pointer or a tree stays short.
 */

/**
 * The longest unit id (a user, a device) the delivery endpoints accept. Here rather than in
 * the assignment module, so that the contract's first-page schemas do not pull the hashing in.
 */
export const MAX_UNIT_ID_LENGTH = 200;

/** The longest JSON Pointer an operation may name, in characters (UTF-16 code units). */
export const MAX_POINTER_LENGTH = 1_024;

/**
 * How many levels lists and mappings may nest, in a value of a request and in a config: a
 * scalar is 0 levels, `[]` and `{}` are 1, `[[1]]` is 2. A config counts from its top-level
 * mapping, so a value at a pointer of n tokens adds n levels to its own.
 */
export const MAX_NESTING_DEPTH = 32;

/**
 * Whether `value` (JSON data) nests lists and objects more than `limit` levels deep.
 * Iterative, and it stops at the first level past the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [current, above] = entry;
    if (typeof current !== 'object' || current === null) continue;
    if (above >= limit) return true;
    for (const inner of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof inner === 'object' && inner !== null) stack.push([inner, above + 1]);
    }
  }
  return false;
}
