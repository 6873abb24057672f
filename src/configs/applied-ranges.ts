/**
 * Where an edit's applied paths sit in the text it saved, so that an editor can highlight
 * them without parsing that text again: placed as validation issues are.
 */
import { isMap, isNode, type Node } from 'yaml';
import type { AppliedRange } from '../contract/config-edit';
import { actionKeyOf, itemsOf, type Operation } from '../contract/operations';
import { parsePointer } from './json-pointer';
import { positionAt, type ParsedConfig } from './parse';

const ITEM_OF = { apps: /^\/apps\/\d+$/, ab_tests: /^\/ab_tests\/\d+$/ } as const;

/**
 * One range per applied path that still names a node of `edited` (the parsed text the edit
 * saved). What the edit removed names nothing any more and is left out: an `unset` path,
 * and a list item's index after a delete, where an item the edit did not make or update now
 * sits.
 */
export function appliedRangesOf(
  edited: ParsedConfig,
  appliedPaths: readonly string[],
  operations: readonly Operation[],
): AppliedRange[] {
  if (edited.syntaxIssues.length > 0) return [];
  const unset = new Set<string>();
  const deleted = { apps: false, ab_tests: false };
  const kept = { apps: new Set<string>(), ab_tests: new Set<string>() };
  for (const operation of operations) {
    const action = actionKeyOf(operation);
    for (const item of itemsOf(operation)) {
      const path = item.path;
      const id = item.id;
      if (action === 'unset' && typeof path === 'string') unset.add(path);
      else if (action === 'delete_app') deleted.apps = true;
      else if (action === 'delete_ab_test') deleted.ab_tests = true;
      else if (typeof id === 'string' && (action === 'create_app' || action === 'update_app')) {
        kept.apps.add(id);
      } else if (typeof id === 'string' && action.endsWith('_ab_test')) kept.ab_tests.add(id);
    }
  }
  const ranges: AppliedRange[] = [];
  for (const path of appliedPaths) {
    if (path === '' || unset.has(path)) continue;
    const node = nodeAt(edited, path);
    const range = node?.range;
    if (!node || !range) continue;
    const list = ITEM_OF.apps.test(path) ? 'apps' : ITEM_OF.ab_tests.test(path) ? 'ab_tests' : '';
    if (list && deleted[list]) {
      const id = isMap(node) ? node.get('id') : undefined;
      if (typeof id !== 'string' || !kept[list].has(id)) continue;
    }
    ranges.push({ path, ...positionAt(edited.text, edited.lineCounter, range[0], range[1]) });
  }
  return ranges;
}

function nodeAt(edited: ParsedConfig, path: string): Node | undefined {
  let segments: string[];
  try {
    segments = parsePointer(path);
  } catch {
    return undefined;
  }
  const node: unknown = edited.document.getIn(segments, true);
  return isNode(node) ? node : undefined;
}
