/**
 * Small, typed helpers over the `yaml` syntax tree, shared by validation and operations.
 */
import {
  isAlias,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  visit,
  type Document,
  type Node,
  type Pair,
} from 'yaml';

export type TreeNode = Node | null;

/** The JSON type of a node, as JSON Schema names it (`integer` is refined from `number`). */
export type NodeJsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'other';

/**
 * Follows aliases to the node they name. Anchors may only point backwards, and a chain is
 * bounded, so this ends.
 */
export function resolveAlias(document: Document, node: TreeNode): TreeNode {
  let current = node;
  for (let hops = 0; isAlias(current) && hops < 100; hops++) {
    current = (current.resolve(document) as Node | undefined) ?? null;
  }
  return isAlias(current) ? null : current;
}

export function jsonTypeOf(node: TreeNode): NodeJsonType {
  if (node === null) return 'null';
  if (isMap(node)) return 'object';
  if (isSeq(node)) return 'array';
  if (isScalar(node)) {
    const value: unknown = node.value;
    if (value === null || value === undefined) return 'null';
    if (typeof value === 'string') return 'string';
    if (typeof value === 'number') return Number.isFinite(value) ? 'number' : 'other';
    if (typeof value === 'boolean') return 'boolean';
  }
  return 'other';
}

/**
 * Whether `node` nests mappings and lists more than `limit` levels deep (itself included; an
 * alias counts as a leaf, keys as values do). Iterative, stopping at the first level past
 * the limit.
 */
export function nodeNestsDeeperThan(node: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[node, 0]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [current, above] = entry;
    if (isPair(current)) {
      stack.push([current.key, above], [current.value, above]);
    } else if (isCollection(current)) {
      if (above >= limit) return true;
      for (const item of current.items) stack.push([item, above + 1]);
    }
  }
  return false;
}

/** A mapping key as the string JSON data would use. */
export function keyString(pair: Pair): string {
  const key = pair.key;
  if (isScalar(key)) return String(key.value);
  if (key === null || key === undefined) return '';
  return String(key);
}

/** The string value of a scalar node, or undefined. */
export function stringValue(node: TreeNode): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}

/**
 * A node's source range as `yaml` keeps it (`[start, valueEnd, nodeEnd]`): the node's own
 * array, which the incremental parse moves; undefined for a node not from the source.
 */
export function sourceRange(node: unknown): [number, number, number] | undefined {
  return (node as { range?: [number, number, number] | null } | null)?.range ?? undefined;
}

/** The source range of a node's value, `[start, end)`, if it came from the source. */
export function valueRange(node: unknown): [number, number] | undefined {
  const range = sourceRange(node);
  return range ? [range[0], range[1]] : undefined;
}

/** The pair of a mapping holding `key`, if any (the first one, when a key repeats). */
export function findPair(node: TreeNode, key: string): Pair | undefined {
  if (!isMap(node)) return undefined;
  return node.items.find((pair) => keyString(pair) === key);
}

/**
 * Whether the document uses anchors or aliases anywhere: the readers and writers that work
 * item by item decline such documents (an alias ties one item to another).
 */
export function hasAnchorsOrAliases(document: Document): boolean {
  let found = false;
  visit(document, (_key, node) => {
    if (isAlias(node) || (isNode(node) && node.anchor)) {
      found = true;
      return visit.BREAK;
    }
    return undefined;
  });
  return found;
}

/**
 * Whether the document may use anchors or aliases: text without `&` and `*` holds none (a
 * cheap answer for large documents); else the tree is looked at.
 */
export function mayHoldAnchors(document: Document, text: string): boolean {
  return (text.includes('&') || text.includes('*')) && hasAnchorsOrAliases(document);
}

/** Directives or document markers: a whole parse or stringify decides what they mean. */
export function hasDirectivesOrMarkers(text: string): boolean {
  // The regular expression only where a marker may be: it is slow on large texts.
  const mayHold = text.includes('---') || text.includes('...');
  return text.startsWith('%') || (mayHold && /^(?:---|\.\.\.)/m.test(text));
}
