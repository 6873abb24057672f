/**
 * What applied operations changed in a document, by node, so that writing the edited
 * document and parsing its text again (incremental-stringify.ts, incremental-parse.ts) can
 * leave the rest alone without comparing every node before and after.
 *
 * Every handler reports each change it makes through `ApplyContext.touch`, with the path of
 * the place it changed (the applied paths of the answer). A path into an item of a
 * top-level list (one there before the operations) names that item, as it is at the time
 * of the touch; a path naming an item itself means the list had an item added, removed or
 * replaced; any other path, or a list or root the operations made, is a change elsewhere.
 * A property test holds that no node changes outside what is noted here
 * (edit-changes.test.ts).
 */
import { isMap, isSeq, type Document, type YAMLSeq } from 'yaml';
import type { PathSegment } from '../json-pointer';
import { findPair } from '../yaml-tree';

export class EditChanges {
  /** Items of top-level lists changed in place (inside them, not the items' places). */
  readonly items = new Set<unknown>();
  /** Top-level lists with a change: an item changed in place, added, removed or replaced. */
  readonly lists = new Set<YAMLSeq>();
  /** Whether anything else changed: the root, a list as a whole, another key, comments. */
  elsewhere = false;
  private root: unknown;
  private readonly listsBefore = new Set<unknown>();

  /** Takes note of the root and its lists before the operations. */
  start(document: Document): void {
    this.root = document.contents;
    if (isMap(this.root)) for (const pair of this.root.items) this.listsBefore.add(pair.value);
  }

  /** Notes the change at `path`, just made to `document`. */
  note(document: Document, path: readonly PathSegment[]): void {
    const [key, index] = path;
    const root = document.contents;
    const list = typeof key === 'string' && isMap(root) ? findPair(root, key)?.value : undefined;
    if (
      typeof index !== 'number' ||
      !isSeq(list) ||
      root !== this.root ||
      !this.listsBefore.has(list) ||
      index > list.items.length
    ) {
      this.elsewhere = true;
      return;
    }
    this.lists.add(list);
    if (path.length > 2) {
      const item = list.items[index];
      if (item === undefined) this.elsewhere = true;
      else this.items.add(item);
    }
  }
}
