/** Plain JSON data helpers: what a config is once its YAML is read. */

export type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep equality of JSON data; mapping key order does not matter, list order does. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]))
    );
  }
  return false;
}

/**
 * The path to the first place where `a` and `b` differ, or undefined when they are equal
 * (as `deepEqual` judges). A key or list item only one side has is a difference there.
 */
export function firstDifference(
  a: unknown,
  b: unknown,
  path: readonly (string | number)[] = [],
): (string | number)[] | undefined {
  if (Object.is(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let index = 0; index < Math.max(a.length, b.length); index++) {
      if (index >= a.length || index >= b.length) return [...path, index];
      const inner = firstDifference(a[index], b[index], [...path, index]);
      if (inner) return inner;
    }
    return undefined;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!Object.hasOwn(a, key) || !Object.hasOwn(b, key)) return [...path, key];
      const inner = firstDifference(a[key], b[key], [...path, key]);
      if (inner) return inner;
    }
    return undefined;
  }
  return [...path];
}
