/**
 * What the action handlers share while one request's operations are applied: the document,
 * the clock, the applied paths, and id indexes of the apps and tests so that a request of
 * many items stays linear on a large config.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  Pair,
  type Document,
  type Node,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { MAX_NESTING_DEPTH } from '../../contract/limits';
import { toPointer, type PathSegment } from '../json-pointer';
import {
  findPair,
  keyString,
  nodeNestsDeeperThan,
  resolveAlias,
  stringValue,
  type TreeNode,
} from '../yaml-tree';
import type { EditChanges } from './edit-changes';
import { refuse } from './refusal';

export type ListKey = 'apps' | 'ab_tests';

/**
 * A scalar that replaces a scalar keeps its comments (`name: Checkout # shown in the UI`):
 * they describe the field rather than the old value.
 */
export function keepComments(old: unknown, node: Node): Node {
  if (isScalar(old) && isScalar(node)) {
    node.commentBefore ??= old.commentBefore;
    node.comment ??= old.comment;
  }
  return node;
}

export class ApplyContext {
  private readonly applied = new Set<string>();
  private readonly lists = new Map<ListKey, IdList>();
  private readonly pairIndexes = new WeakMap<YAMLMap, Map<string, Pair>>();
  /** Mappings that repeat a key: removing one holder may reveal another, so no index. */
  private readonly repeatsKeys = new WeakSet<YAMLMap>();
  /** Places touched since the last `checkNesting`. */
  private unchecked: (readonly PathSegment[])[] = [];

  constructor(
    readonly document: Document,
    readonly now: Date,
    private readonly changes?: EditChanges,
  ) {
    changes?.start(document);
  }

  /**
   * Records a JSON Pointer the operations touched (in order, without duplicates), right
   * after the change there: every change to the document is touched (edit-changes.ts).
   */
  touch(path: readonly PathSegment[]): void {
    this.applied.add(toPointer(path));
    this.changes?.note(this.document, path);
    this.unchecked.push(path);
  }

  /**
   * Refuses a change that left the config nesting deeper than MAX_NESTING_DEPTH levels: the
   * node at each place touched since the last check sits as many levels deep as its path
   * is long, so this costs the size of what was written there. A path through an alias may
   * lead elsewhere in the text: then the whole document is measured.
   */
  checkNesting(): void {
    const paths = this.unchecked;
    this.unchecked = [];
    for (const path of paths) {
      const found = this.nodeAt(path);
      if (found === undefined) continue;
      const tooDeep = found.throughAlias
        ? nodeNestsDeeperThan(this.document.contents, MAX_NESTING_DEPTH)
        : path.length > MAX_NESTING_DEPTH ||
          nodeNestsDeeperThan(found.node, MAX_NESTING_DEPTH - path.length);
      if (tooDeep) {
        throw refuse.tooDeep(
          `what it writes at ${toPointer(path) || '""'} would make the config nest deeper than ${MAX_NESTING_DEPTH} levels, the limit for a config`,
        );
      }
    }
  }

  /** The node at `path`, and whether an alias was followed on the way; undefined: none. */
  private nodeAt(
    path: readonly PathSegment[],
  ): { readonly node: TreeNode; readonly throughAlias: boolean } | undefined {
    let raw = this.document.contents as TreeNode;
    let throughAlias = false;
    for (const segment of [...path, undefined]) {
      throughAlias ||= isAlias(raw);
      const node = resolveAlias(this.document, raw);
      if (segment === undefined) return { node, throughAlias };
      if (isMap(node)) {
        const pair = this.pair(node, String(segment));
        if (!pair) return undefined;
        raw = (pair.value ?? null) as TreeNode;
      } else if (isSeq(node)) {
        const item: unknown = node.items[Number(segment)];
        if (item === undefined) return undefined;
        raw = item as TreeNode;
      } else {
        return undefined;
      }
    }
    return undefined;
  }

  appliedPaths(): string[] {
    return [...this.applied];
  }

  createNode(value: unknown): Node {
    // Never turn repeated objects into anchors and aliases: the text should read as written.
    return this.document.createNode(value, { aliasDuplicateObjects: false }) as Node;
  }

  /**
   * The pair holding `key` in `map` (the first, when a key repeats), through an index built
   * once per mapping: many items aimed at one big mapping stay linear.
   */
  pair(map: YAMLMap, key: string): Pair | undefined {
    return this.pairIndex(map).get(key);
  }

  /** Sets `key` in `map`, keeping an existing pair (and its comments) when there is one. */
  setPair(map: YAMLMap, key: string, node: Node): void {
    const pair = this.pair(map, key);
    if (pair) {
      pair.value = keepComments(pair.value, node);
      return;
    }
    const created = new Pair(this.createNode(key), node);
    map.items.push(created);
    this.pairIndex(map).set(key, created);
  }

  /** Removes `key` from `map`; false when it is not there. */
  removePair(map: YAMLMap, key: string): boolean {
    const pair = this.pair(map, key);
    if (!pair) return false;
    map.items.splice(map.items.indexOf(pair), 1);
    if (this.repeatsKeys.has(map)) this.pairIndexes.delete(map);
    else this.pairIndex(map).delete(key);
    return true;
  }

  private pairIndex(map: YAMLMap): Map<string, Pair> {
    let index = this.pairIndexes.get(map);
    if (!index) {
      index = new Map();
      for (const pair of map.items) {
        const key = keyString(pair);
        if (index.has(key)) this.repeatsKeys.add(map);
        else index.set(key, pair);
      }
      this.pairIndexes.set(map, index);
    }
    return index;
  }

  list(key: ListKey): IdList {
    let list = this.lists.get(key);
    if (!list) {
      list = new IdList(this, key);
      this.lists.set(key, list);
    }
    return list;
  }

  /** After a set/unset, the lists may have changed in any way: rebuild indexes when next used. */
  forgetIndexes(): void {
    this.lists.clear();
  }

  /** The root mapping, created when the document is empty. */
  rootMap(): YAMLMap {
    const root = resolveAlias(this.document, this.document.contents as TreeNode);
    if (isMap(root)) return root;
    if (root === null || (root as { value?: unknown }).value === null) {
      const created = this.createNode({}) as YAMLMap;
      this.document.contents = created;
      return created;
    }
    throw refuse.conflict(
      'path.conflict',
      'The config is not a mapping, so it has no apps or A/B tests',
    );
  }
}

export interface ListEntry {
  readonly map: YAMLMap;
  readonly index: number;
}

/** The `apps` or `ab_tests` list with an index by id (the first holder of an id wins). */
export class IdList {
  private byId: Map<string, YAMLMap> | undefined;
  private positions: Map<YAMLMap, number> | undefined;

  constructor(
    private readonly context: ApplyContext,
    readonly key: ListKey,
  ) {}

  /** The list node; created (empty) only when `create` is set. */
  seq(create: boolean): YAMLSeq | undefined {
    const root = this.context.rootMap();
    const pair = this.context.pair(root, this.key);
    const node = resolveAlias(this.context.document, (pair?.value ?? null) as TreeNode);
    if (isSeq(node)) return node;
    const isEmpty = node === null || (node as { value?: unknown }).value === null;
    if (!isEmpty) {
      throw refuse.conflict(
        'path.conflict',
        `"${this.key}" is not a list, so it cannot hold items`,
      );
    }
    if (!create) return undefined;
    const created = this.context.createNode([]) as YAMLSeq;
    this.context.setPair(root, this.key, created);
    return created;
  }

  find(id: string): ListEntry | undefined {
    const map = this.index().get(id);
    if (!map) return undefined;
    return { map, index: this.positionOf(map) };
  }

  append(value: Record<string, unknown>): number {
    const seq = this.seq(true) as YAMLSeq;
    // `apps: []` is an empty flow list; the items appended to it read better in block style.
    if (seq.items.length === 0 && seq.flow) seq.flow = false;
    const node = this.context.createNode(value) as YAMLMap;
    seq.items.push(node);
    const index = seq.items.length - 1;
    const id = value.id;
    if (typeof id === 'string' && !this.index().has(id)) this.index().set(id, node);
    this.positions?.set(node, index);
    return index;
  }

  remove(entry: ListEntry): void {
    this.seq(false)?.items.splice(entry.index, 1);
    // Later items moved up, and a later duplicate of the id may now be its first holder.
    this.byId = undefined;
    this.positions = undefined;
  }

  /** Every item that is a mapping, with its index. */
  entries(): ListEntry[] {
    const seq = this.seq(false);
    if (!seq) return [];
    const entries: ListEntry[] = [];
    seq.items.forEach((item, index) => {
      const map = resolveAlias(this.context.document, item as TreeNode);
      if (isMap(map)) entries.push({ map, index });
    });
    return entries;
  }

  private index(): Map<string, YAMLMap> {
    if (!this.byId) {
      this.byId = new Map();
      for (const { map } of this.entries()) {
        const id = stringValue(
          resolveAlias(this.context.document, (findPair(map, 'id')?.value ?? null) as TreeNode),
        );
        if (id !== undefined && !this.byId.has(id)) this.byId.set(id, map);
      }
    }
    return this.byId;
  }

  private positionOf(map: YAMLMap): number {
    if (!this.positions) {
      this.positions = new Map();
      const seq = this.seq(false);
      seq?.items.forEach((item, index) => {
        const resolved = resolveAlias(this.context.document, item as TreeNode);
        if (isMap(resolved)) this.positions?.set(resolved, index);
      });
    }
    return this.positions.get(map) ?? -1;
  }
}
