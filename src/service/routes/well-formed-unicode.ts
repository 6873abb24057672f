/**
 * Finds a string that is not well-formed Unicode (a lone UTF-16 surrogate, which JSON text
 * can spell as `"\ud800"`) anywhere in a parsed JSON body, keys included. SQLite stores text
 * as UTF-8, where a lone surrogate cannot exist: it would come back as U+FFFD, so a key's
 * name or an edit's summary would differ from what was sent. Such a body is refused instead.
 */

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The JSON Pointer of the first ill-formed string (or key), or undefined when all are fine. */
export function findIllFormedString(value: unknown): string | undefined {
  // Iterative: bodies may nest thousands of levels deep.
  const stack: { value: unknown; pointer: string }[] = [{ value, pointer: '' }];
  while (stack.length > 0) {
    const { value: current, pointer } = stack.pop() as { value: unknown; pointer: string };
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return pointer;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, pointer: `${pointer}/${index}` }));
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const itemPointer = `${pointer}/${escapePointer(key)}`;
        if (LONE_SURROGATE.test(key)) return itemPointer;
        stack.push({ value: item, pointer: itemPointer });
      }
    }
  }
  return undefined;
}
