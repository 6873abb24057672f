/**
 * `set` and `unset` at a JSON Pointer: for anything the typed actions do not cover.
 *
 * In a list, a token is an index (`-` or the length appends, for `set`); in a mapping it is
 * a key. `set` creates missing parent mappings; a scalar in the way is a conflict (409), an
 * index past the end or an absent target of `unset` does not exist (422).
 */
import { isMap, isScalar, isSeq, type Node, type YAMLMap, type YAMLSeq } from 'yaml';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../../contract/limits';
import { isArrayIndexToken, parsePointer, toPointer, type PathSegment } from '../json-pointer';
import { resolveAlias, type TreeNode } from '../yaml-tree';
import { keepComments, type ApplyContext } from './apply-context';
import { refuse } from './refusal';

type Container = YAMLMap | YAMLSeq;

export function applySet(context: ApplyContext, pointer: string, value: unknown): void {
  const tokens = parsePointer(pointer);
  // The value sits as many levels deep as the pointer has tokens: refused before any walk.
  const room = MAX_NESTING_DEPTH - tokens.length;
  if (room < 0 || nestsDeeperThan(value, room)) {
    throw refuse.tooDeep(
      `at ${pointer || '""'} (${tokens.length} levels deep) the value would make the config nest deeper than ${MAX_NESTING_DEPTH} levels, the limit for a config`,
      'value',
    );
  }
  context.forgetIndexes();
  if (tokens.length === 0) {
    context.document.contents = context.createNode(value);
    context.touch([]);
    return;
  }
  const { parent, path } = walkToParent(context, tokens, true);
  const last = tokens[tokens.length - 1] as string;
  if (isSeq(parent)) {
    const index = last === '-' ? parent.items.length : listIndex(parent, last, () => pointer, true);
    if (index === parent.items.length) parent.items.push(context.createNode(value));
    else parent.items[index] = keepComments(parent.items[index], context.createNode(value));
    context.touch([...path, index]);
  } else {
    context.setPair(parent, last, context.createNode(value));
    context.touch([...path, last]);
  }
}

export function applyUnset(context: ApplyContext, pointer: string): void {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) throw refuse.badItem('unset cannot remove the whole document');
  context.forgetIndexes();
  const { parent, path } = walkToParent(context, tokens, false);
  const last = tokens[tokens.length - 1] as string;
  if (isSeq(parent)) {
    const index = listIndex(parent, last, () => pointer, false);
    parent.items.splice(index, 1);
    context.touch([...path, index]);
  } else {
    if (!context.removePair(parent, last)) throw notFound(pointer);
    context.touch([...path, last]);
  }
}

/**
 * Follows all tokens but the last; creates missing mappings when `create` is set. Linear in
 * the pointer: the pointer of a place is spelt out only for a refusal's message.
 */
function walkToParent(
  context: ApplyContext,
  tokens: readonly string[],
  create: boolean,
): { parent: Container; path: PathSegment[] } {
  let current = asContainer(
    context,
    context.document.contents as TreeNode,
    () => '',
    create,
    () => {
      const root = context.createNode({}) as YAMLMap;
      context.document.contents = root;
      return root;
    },
  );
  const path: PathSegment[] = [];
  for (let depth = 0; depth < tokens.length - 1; depth++) {
    const token = tokens[depth] as string;
    const here = () => toPointer(tokens.slice(0, depth + 1));
    if (isSeq(current)) {
      const index = listIndex(current, token, here, false);
      const seq = current;
      current = asContainer(context, seq.items[index] as TreeNode, here, create, () => {
        const created = context.createNode({}) as YAMLMap;
        seq.items[index] = created;
        return created;
      });
      path.push(index);
    } else {
      const map = current;
      current = asContainer(
        context,
        (context.pair(map, token)?.value ?? null) as TreeNode,
        here,
        create,
        () => {
          const created = context.createNode({}) as YAMLMap;
          context.setPair(map, token, created);
          return created;
        },
      );
      path.push(token);
    }
  }
  return { parent: current, path };
}

function asContainer(
  context: ApplyContext,
  raw: TreeNode,
  pointer: () => string,
  create: boolean,
  createMap: () => YAMLMap,
): Container {
  const node = resolveAlias(context.document, raw);
  if (isMap(node) || isSeq(node)) return node;
  const empty = node === null || (isScalar(node) && node.value === null);
  if (empty && create) return createMap();
  if (empty) throw notFound(pointer() || '""');
  throw refuse.conflict(
    'path.conflict',
    `${pointer() || 'The document'} is ${describe(node)}, so nothing can be set inside it`,
  );
}

function listIndex(seq: YAMLSeq, token: string, pointer: () => string, allowEnd: boolean): number {
  if (!isArrayIndexToken(token)) {
    throw refuse.notFound(
      'path.not_found',
      `${pointer()}: "${token}" is not an index of the list there`,
    );
  }
  const index = Number(token);
  const limit = allowEnd ? seq.items.length : seq.items.length - 1;
  if (index > limit) {
    throw refuse.notFound(
      'path.not_found',
      `${pointer()}: the list there has ${seq.items.length} items`,
    );
  }
  return index;
}

function notFound(pointer: string) {
  return refuse.notFound('path.not_found', `Nothing is at ${pointer}`);
}

function describe(node: Node | null): string {
  if (isScalar(node)) return `a ${typeof node.value} (${JSON.stringify(node.value)})`;
  return 'not a mapping or list';
}
