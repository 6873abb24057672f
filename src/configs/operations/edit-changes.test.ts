import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCollection, isMap, isPair, isSeq, type Document, type YAMLSeq } from 'yaml';
import type { Operation } from '../../contract/operations';
import { parseConfig } from '../parse';
import {
  appEditArb,
  commentedArb,
  operationArb,
  requestsArb,
  textArb,
} from '../testing/edit-arbitraries';
import { largeConfigText } from '../testing/large-config';
import { mayHoldAnchors } from '../yaml-tree';
import { applyOperations } from './apply-operations';
import { EditChanges } from './edit-changes';

/**
 * Everything of a tree as plain values: each node's and pair's identity and own properties
 * (ranges as text), items in order; of `lists`, only their identity.
 */
function print(root: unknown, lists: ReadonlySet<unknown> = new Set()): unknown[] {
  const out: unknown[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    out.push(node);
    if (node === null || typeof node !== 'object') continue;
    if (isPair(node)) {
      stack.push(node.value, node.key);
      continue;
    }
    if (lists.has(node)) continue;
    out.push(...ownProps(node));
    if (isCollection(node)) {
      out.push(node.items.length);
      for (let index = node.items.length - 1; index >= 0; index--) stack.push(node.items[index]);
    }
  }
  return out;
}

interface Snapshot {
  readonly rest: unknown[];
  readonly lists: Map<YAMLSeq, { items: unknown[]; prints: Map<unknown, unknown[]> }>;
}

/** The lists of the root mapping (any value that is a list) and everything else. */
function snapshot(document: Document): Snapshot {
  const root = document.contents;
  const seqs = isMap(root) ? root.items.map((pair) => pair.value).filter((v) => isSeq(v)) : [];
  const lists = new Map(
    seqs.map((seq) => [
      seq,
      {
        items: [...seq.items],
        prints: new Map(seq.items.map((item) => [item, print(item)])),
      },
    ]),
  );
  const rest = [document.commentBefore, document.comment, ...print(root, new Set(seqs))];
  return { rest, lists };
}

/** A node's own properties but its items, as plain values; `flow` left out when asked. */
function ownProps(node: object, withoutFlow = false): unknown[] {
  const out: unknown[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'items' || key === 'schema' || key === 'srcToken') continue;
    if (withoutFlow && key === 'flow') continue;
    out.push(key, typeof value === 'object' && value !== null ? JSON.stringify(value) : value);
  }
  return out;
}

function checkNoted(text: string, requests: readonly Operation[][]) {
  let parsed = parseConfig(text);
  let noted = 0;
  for (const operations of requests) {
    const { document } = parsed;
    const before = snapshot(document);
    const ownBefore = new Map(
      [...before.lists.keys()].map((seq) => [
        seq,
        { all: ownProps(seq), noFlow: ownProps(seq, true), flow: Boolean(seq.flow) },
      ]),
    );
    const changes = new EditChanges();
    const applied = applyOperations(document, operations, { changes });
    if (applied.ok && !changes.elsewhere) {
      noted += 1;
      const after = snapshot(document);
      expect(after.rest).toEqual(before.rest);
      for (const [seq, was] of before.lists) {
        // A list with a change may lose its flow style (`apps: []` and an app appended).
        const own = ownBefore.get(seq);
        if (changes.lists.has(seq) && own?.flow) expect(ownProps(seq, true)).toEqual(own.noFlow);
        else expect(ownProps(seq)).toEqual(own?.all);
        if (!changes.lists.has(seq)) expect(seq.items).toEqual(was.items);
        for (const item of seq.items) {
          const print = was.prints.get(item);
          if (print && !changes.items.has(item))
            expect(after.lists.get(seq)?.prints.get(item)).toEqual(print);
        }
      }
    }
    parsed = parseConfig(parsed.text);
  }
  return noted;
}

// Found by CI: a block list emptied and appended to in one request must keep its own
// properties (no `flow: false` added where the list had no flow style).
const EMPTIED_THEN_APPENDED = `apps:
  # app 0
  - id: app-0
    name: App number 0
    platform: web
ab_tests: []
`;
const EMPTY_AND_REFILL: Operation[] = [
  { delete_app: [{ id: 'app-0' }] },
  { create_app: [{ id: 'a', name: 'yes', platform: 'web' }] },
];

describe('EditChanges', () => {
  it('notes every change the operations make: nothing else changes', () => {
    let noted = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          textArb,
          fc.integer({ min: 3, max: 12 }).chain((apps) => commentedArb(largeConfigText(apps))),
        ),
        fc.oneof(
          requestsArb,
          fc.array(fc.array(fc.oneof(appEditArb, operationArb), { minLength: 1, maxLength: 3 })),
        ),
        (text, requests) => {
          const parsed = parseConfig(text);
          // With anchors, an item's nodes may be another's: the note is not by item there.
          fc.pre(!mayHoldAnchors(parsed.document, parsed.text));
          noted += checkNoted(text, requests);
        },
      ),
      { numRuns: 300, examples: [[EMPTIED_THEN_APPENDED, [EMPTY_AND_REFILL]]] },
    );
    expect(noted).toBeGreaterThan(100);
  }, 120_000);
});
