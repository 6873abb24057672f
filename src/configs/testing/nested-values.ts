/** Values nested to a given depth, for the tests of the nesting limit. */

/** `levels` lists nested in one another around 1: `[[1]]` is 2 levels. */
export function nestedLists(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

/** `levels` mappings nested in one another: `{ k: { k: 1 } }` is 2 levels. */
export function nestedMaps(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = { k: value };
  return value;
}
