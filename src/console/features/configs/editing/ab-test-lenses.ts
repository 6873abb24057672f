/**
 * The A/B test steps the editor offers as CodeLenses: above each item of `ab_tests`, the
 * lifecycle steps its status and the key's permissions allow. The tests come from the
 * config's contents (read in the operations worker); their lines from a scan of the text,
 * which is cheap on any size and only trusted where the item there names the same test.
 */
import type { AbTestContents, ConfigContents } from '../../../../configs';
import type { AuthStatus } from '../../../../contract/auth-status';
import { stepsOffered, type LifecycleStep } from '../../../ab-test-kit/lifecycle';
import type { EditorLens } from '../../../editor/editor-types';

/** One item of the `ab_tests` list as the text lays it out. */
export interface AbTestItemLine {
  /** The 1-based line of the item's `-`. */
  readonly line: number;
  /** The item's `id` as written at its own level; null when the scan cannot tell. */
  readonly id: string | null;
}

const AB_TESTS_KEY = /^ab_tests[ \t]*:[ \t]*(#.*)?$/;
const ITEM = /^( *)-( +|$)/;
const ID_VALUE = /^id[ \t]*:[ \t]*(?:"([^"\\]*)"|'([^']*)'|([^\s#"'][^#]*?))[ \t]*(?:#.*)?$/;

function isBlankOrComment(line: string): boolean {
  return /^[ \t]*(#.*)?$/.test(line);
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function idOf(content: string): string | null {
  const match = ID_VALUE.exec(content);
  if (!match) return null;
  return match[1] ?? match[2] ?? match[3] ?? null;
}

/**
 * The items of the top-level block list `ab_tests`, in order; null when the text has no
 * such list (no `ab_tests`, or written in flow style).
 */
export function abTestItemLines(text: string): AbTestItemLine[] | null {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => AB_TESTS_KEY.test(line));
  if (start < 0) return null;
  const items: { line: number; id: string | null; keyColumn: number | null }[] = [];
  let itemIndent: number | null = null;
  for (let index = start + 1; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (isBlankOrComment(line)) continue;
    const indent = indentOf(line);
    const item = ITEM.exec(line);
    if (itemIndent === null) {
      if (!item) return null;
      itemIndent = indent;
    }
    if (item && indent === itemIndent) {
      const content = line.slice(item[0].length);
      const keyColumn = content === '' || content.startsWith('#') ? null : item[0].length;
      items.push({ line: index + 1, id: keyColumn === null ? null : idOf(content), keyColumn });
      continue;
    }
    // Anything else at the items' indentation or left of it ends the list.
    if (indent <= itemIndent) break;
    const current = items.at(-1);
    if (!current) break;
    // The item's keys sit at one column: the first key after its `-`, or its first line.
    current.keyColumn ??= indent;
    if (indent === current.keyColumn && current.id === null) current.id = idOf(line.slice(indent));
  }
  return items.map(({ line, id }) => ({ line, id }));
}

/** A lens and what choosing it does: a step of a test. */
export interface AbTestStepLens {
  readonly lens: EditorLens;
  readonly test: AbTestContents;
  readonly step: LifecycleStep;
}

/**
 * The lenses of a config's text: the steps each test allows, on the line of its item.
 * None when the contents are unknown (the text does not parse, or is still being read).
 */
export function abTestStepLenses(
  text: string,
  contents: ConfigContents | null,
  auth: AuthStatus | undefined,
): AbTestStepLens[] {
  if (!contents || contents.abTests.length === 0) return [];
  const items = abTestItemLines(text) ?? [];
  return contents.abTests.flatMap((test) => {
    const item = items[test.index];
    if (!item || item.id !== test.id) return [];
    return stepsOffered(test.status, auth).map((step) => ({
      lens: {
        line: item.line,
        title: step.verb,
        tooltip: `${step.verb} the A/B test ${test.id}`,
        id: `${test.index}:${step.action}`,
      },
      test,
      step,
    }));
  });
}
