/**
 * Parsed YAML subtrees, walked without recursion: their ranges moved by an offset, and their
 * comments and blank lines compared (what the incremental parse checks before it reuses one).
 */
import { isCollection, isNode, isPair, isScalar, type Document, type Node } from 'yaml';
import { sourceRange } from './yaml-tree';

/** Adds `by` to every range in a freshly parsed subtree. */
export function shiftNode(node: unknown, by: number): boolean {
  let ok = true;
  walk(node, (each) => {
    const range = sourceRange(each);
    if (!range) {
      ok = false;
      return;
    }
    range[0] += by;
    range[1] += by;
    range[2] += by;
  });
  return ok;
}

/**
 * Moves the ranges of the reused nodes: offsets up to `cutStart` stay, offsets from
 * `cutEnd` move by `delta`; a node without a range (made by the operations) or with an
 * offset inside the cut (changed) means the whole parse is needed. Nothing is changed
 * unless every node passes.
 */
export function shiftRanges(
  document: Document.Parsed,
  skip: ReadonlySet<unknown>,
  cutStart: number,
  cutEnd: number,
  delta: number,
): boolean {
  const ranges: [number, number, number][] = [];
  const seen = new Set<unknown>();
  let ok = true;
  const documentRange = document.range as [number, number, number] | undefined;
  if (!documentRange) return false;
  ranges.push(documentRange);
  walk(
    document.contents,
    (node) => {
      if (!ok) return;
      if (seen.has(node)) {
        ok = false;
        return;
      }
      seen.add(node);
      const range = sourceRange(node);
      if (!range) {
        ok = false;
        return;
      }
      for (const offset of range) {
        if (offset > cutStart && offset < cutEnd) ok = false;
      }
      ranges.push(range);
    },
    skip,
  );
  if (!ok) return false;
  if (delta !== 0) {
    for (const range of ranges) {
      if (range[0] >= cutEnd) range[0] += delta;
      if (range[1] >= cutEnd) range[1] += delta;
      if (range[2] >= cutEnd) range[2] += delta;
    }
  }
  return true;
}

/** Calls `visit` for every node under `root` (pairs are walked through, not visited). */
function walk(root: unknown, visitNode: (node: Node) => void, skip?: ReadonlySet<unknown>): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || node === undefined || skip?.has(node)) continue;
    if (isPair(node)) {
      stack.push(node.value, node.key);
      continue;
    }
    if (!isNode(node)) {
      // A plain value where a node should be (operations write nodes): not ours to judge.
      visitNode(node as Node);
      continue;
    }
    visitNode(node);
    if (isCollection(node)) {
      for (let index = node.items.length - 1; index >= 0; index--) stack.push(node.items[index]);
    }
  }
}

interface Commented {
  comment?: string | null;
  commentBefore?: string | null;
  spaceBefore?: boolean;
}

function sameOwnComments(a: unknown, b: unknown): boolean {
  const x = a as Commented;
  const y = b as Commented;
  return (
    (x.comment ?? null) === (y.comment ?? null) &&
    (x.commentBefore ?? null) === (y.commentBefore ?? null) &&
    Boolean(x.spaceBefore) === Boolean(y.spaceBefore)
  );
}

export function sameCommentsBefore(a: unknown, b: unknown): boolean {
  const x = a as Commented;
  const y = b as Commented;
  return (
    (x.commentBefore ?? null) === (y.commentBefore ?? null) &&
    Boolean(x.spaceBefore) === Boolean(y.spaceBefore)
  );
}

/**
 * Two subtrees of the same shape carry the same comments and blank lines; the root's own
 * comment before it and blank line before it are left out when `exceptRootBefore`.
 */
export function sameComments(a: unknown, b: unknown, exceptRootBefore = false): boolean {
  const left: unknown[] = [];
  const right: unknown[] = [];
  walk(a, (node) => left.push(node));
  walk(b, (node) => right.push(node));
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) {
    const x = left[index];
    const y = right[index];
    if (isScalar(x) !== isScalar(y) || isCollection(x) !== isCollection(y)) return false;
    if (index === 0 && exceptRootBefore) {
      if (((x as Commented).comment ?? null) !== ((y as Commented).comment ?? null)) return false;
    } else if (!sameOwnComments(x, y)) return false;
  }
  return true;
}
