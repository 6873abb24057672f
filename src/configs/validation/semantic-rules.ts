/**
 * The rules a JSON Schema cannot say (docs/config.md): unique ids, tests naming real apps,
 * variant ids and weights, winners, settings a variant overrides, disabled apps in tests,
 * the metrics a test names (each once; the account's, when the context says which those are).
 *
 * They read the tree leniently: anything of the wrong shape is the schema rules' to report,
 * so here it is skipped rather than reported twice.
 */
import { isMap, isScalar, isSeq, type Document, type Pair, type YAMLMap } from 'yaml';
import { ID_PATTERN, WEIGHTS_TOTAL } from '../../contract/config-document';
import type { PathSegment } from '../json-pointer';
import {
  findPair,
  keyString,
  resolveAlias,
  stringValue,
  valueRange,
  type TreeNode,
} from '../yaml-tree';
import type { IssueSink } from './issue-collector';
import type { ValidationContext } from './validation-context';

interface Item {
  readonly index: number;
  readonly map: YAMLMap;
}

/** What the rules that span items read of an app: it depends on the app alone. */
export interface AppSummary {
  readonly id: string | undefined;
  /** The id's value node, where a duplicate id is reported. */
  readonly idNode: unknown;
  readonly settingKeys: ReadonlySet<string>;
  readonly enabled: boolean;
}

export function summarizeApp(document: Document, map: YAMLMap): AppSummary {
  const idNode = findPair(map, 'id')?.value;
  const enabled = field(document, map, 'enabled');
  return {
    id: stringValue(resolveAlias(document, (idNode ?? null) as TreeNode)),
    idNode,
    settingKeys: new Set(mapPairs(document, field(document, map, 'settings')).map(keyString)),
    enabled: !(isScalar(enabled) && enabled.value === false),
  };
}

/**
 * `summaryOf` gives an app's summary; validate-edited.ts gives the ones it kept for the
 * apps an edit left alone. These rules depend on `context`, so none of their findings is
 * kept from one edit to the next.
 */
export function checkSemanticRules(
  document: Document,
  issues: IssueSink,
  summaryOf: (app: YAMLMap) => AppSummary = (app) => summarizeApp(document, app),
  context: ValidationContext = {},
): void {
  const root = resolveAlias(document, document.contents as TreeNode);
  const apps = mapItems(document, topLevel(document, root, 'apps'));
  const tests = mapItems(document, topLevel(document, root, 'ab_tests'));

  const appsById = new Map<string, AppSummary>();
  const appIds = uniqueIds(
    apps,
    (item) => summaryOf(item.map),
    ['apps'],
    'app.duplicate_id',
    'app',
    issues,
  );
  for (const { id, item } of appIds) appsById.set(id, summaryOf(item.map));
  uniqueIds(tests, idOf(document), ['ab_tests'], 'ab_test.duplicate_id', 'A/B test', issues);

  const metricIds = context.metricIds && new Set(context.metricIds);
  for (const test of tests) {
    checkTest(document, test, appsById, issues);
    checkTestMetrics(document, test, metricIds, issues);
  }
}

/** An item's id, read from the tree, and its value node. */
function idOf(document: Document) {
  return (item: Item) => {
    const idNode = findPair(item.map, 'id')?.value;
    return { id: stringValue(resolveAlias(document, (idNode ?? null) as TreeNode)), idNode };
  };
}

function checkTest(
  document: Document,
  test: Item,
  appsById: ReadonlyMap<string, AppSummary>,
  issues: IssueSink,
): void {
  const path: PathSegment[] = ['ab_tests', test.index];
  const testId = stringValue(field(document, test.map, 'id')) ?? `#${test.index}`;
  const appPair = findPair(test.map, 'app');
  const appId = stringValue(resolveAlias(document, appPair?.value as TreeNode));
  const app = appId === undefined ? undefined : appsById.get(appId);
  if (appPair && appId !== undefined && !app) {
    issues.add(
      'ab_test.unknown_app',
      'error',
      `A/B test "${testId}" names the app "${appId}", which is not in this config`,
      [...path, 'app'],
      valueRange(appPair.value),
    );
  }

  const status = stringValue(field(document, test.map, 'status'));
  if (app && !app.enabled && status === 'running') {
    issues.add(
      'app.disabled_in_test',
      'warning',
      `A/B test "${testId}" is running on the app "${appId}", which is disabled`,
      [...path, 'app'],
      valueRange(appPair?.value),
    );
  }

  const variantsPair = findPair(test.map, 'variants');
  const variants = mapItems(document, resolveAlias(document, variantsPair?.value as TreeNode));
  const variantIds = new Set(
    uniqueIds(
      variants,
      idOf(document),
      [...path, 'variants'],
      'ab_test.duplicate_variant',
      'variant',
      issues,
    ).map(({ id }) => id),
  );

  const weights = variants.map(({ map }) => field(document, map, 'weight'));
  const numeric = weights.every((node) => isScalar(node) && typeof node.value === 'number');
  const sum = weights.reduce((total, node) => total + Number(isScalar(node) ? node.value : 0), 0);
  if (variantsPair && variants.length > 0 && numeric && sum !== WEIGHTS_TOTAL) {
    issues.add(
      'ab_test.weights_sum',
      'error',
      `The weights of A/B test "${testId}" sum to ${sum}; they must sum to ${WEIGHTS_TOTAL}`,
      [...path, 'variants'],
      valueRange(variantsPair.key),
    );
  }

  checkWinner(document, test, testId, status, variantIds, issues);

  if (app) {
    for (const variant of variants) {
      const settingsPairs = mapPairs(document, field(document, variant.map, 'settings'));
      for (const pair of settingsPairs) {
        const key = keyString(pair);
        if (app.settingKeys.has(key)) continue;
        issues.add(
          'ab_test.unknown_setting',
          'warning',
          `Variant ${describeVariant(document, variant)} overrides "${key}", which the app "${appId}" does not define`,
          [...path, 'variants', variant.index, 'settings', key],
          valueRange(pair.key),
        );
      }
    }
  }
}

const METRIC_LISTS = [
  { key: 'metrics', role: 'goal' },
  { key: 'guardrails', role: 'guardrail' },
] as const;
const METRIC_ID = new RegExp(ID_PATTERN, 'u');

/**
 * Each metric id once across a test's goals and guardrails, and (when the account's metric
 * ids are known) each one of them. Ids of the wrong shape are the schema rules' to report.
 */
function checkTestMetrics(
  document: Document,
  test: Item,
  metricIds: ReadonlySet<string> | undefined,
  issues: IssueSink,
): void {
  const testId = stringValue(field(document, test.map, 'id')) ?? `#${test.index}`;
  const seen = new Map<string, 'goal' | 'guardrail'>();
  for (const { key, role } of METRIC_LISTS) {
    const list = field(document, test.map, key);
    if (!isSeq(list)) continue;
    list.items.forEach((raw, index) => {
      const metricId = stringValue(resolveAlias(document, raw as TreeNode));
      if (metricId === undefined || !METRIC_ID.test(metricId)) return;
      const path: PathSegment[] = ['ab_tests', test.index, key, index];
      const earlier = seen.get(metricId);
      if (earlier !== undefined) {
        issues.add(
          'ab_test.duplicate_metric',
          'error',
          earlier === role
            ? `A/B test "${testId}" names the metric "${metricId}" twice in ${key}`
            : `A/B test "${testId}" names the metric "${metricId}" as a guardrail, and it is already one of its goals`,
          path,
          valueRange(raw),
        );
        return;
      }
      seen.set(metricId, role);
      if (metricIds && !metricIds.has(metricId)) {
        issues.add(
          'ab_test.unknown_metric',
          'warning',
          `A/B test "${testId}" names the metric "${metricId}", which is not one of this account's metrics`,
          path,
          valueRange(raw),
        );
      }
    });
  }
}

function checkWinner(
  document: Document,
  test: Item,
  testId: string,
  status: string | undefined,
  variantIds: ReadonlySet<string>,
  issues: IssueSink,
): void {
  const path: PathSegment[] = ['ab_tests', test.index, 'winner'];
  const winnerPair = findPair(test.map, 'winner');
  const statusPair = findPair(test.map, 'status');
  if (status === 'promoted' && !winnerPair) {
    issues.add(
      'ab_test.winner',
      'error',
      `A/B test "${testId}" is promoted but names no winner`,
      path,
      valueRange(statusPair?.value),
    );
  } else if (status !== undefined && status !== 'promoted' && winnerPair) {
    issues.add(
      'ab_test.winner',
      'error',
      `A/B test "${testId}" has a winner but its status is ${status}; only promoted tests have one`,
      path,
      valueRange(winnerPair.key),
    );
  } else if (winnerPair) {
    const winner = stringValue(resolveAlias(document, winnerPair.value as TreeNode));
    if (winner !== undefined && !variantIds.has(winner)) {
      issues.add(
        'ab_test.winner',
        'error',
        `The winner "${winner}" of A/B test "${testId}" is not one of its variants`,
        path,
        valueRange(winnerPair.value),
      );
    }
  }
}

/**
 * Reports the second and later holders of an id; returns each id's first holder. Items
 * without a string id are skipped (the schema rules report them).
 */
function uniqueIds(
  items: readonly Item[],
  idOfItem: (item: Item) => { readonly id: string | undefined; readonly idNode: unknown },
  listPath: readonly PathSegment[],
  code: string,
  what: string,
  issues: IssueSink,
): { id: string; item: Item }[] {
  const first = new Map<string, Item>();
  for (const item of items) {
    const { id, idNode } = idOfItem(item);
    if (id === undefined) continue;
    const holder = first.get(id);
    if (holder) {
      issues.add(
        code,
        'error',
        `Another ${what} (item ${holder.index}) already has the id "${id}"`,
        [...listPath, item.index, 'id'],
        valueRange(idNode),
      );
    } else {
      first.set(id, item);
    }
  }
  return [...first].map(([id, item]) => ({ id, item }));
}

function topLevel(document: Document, root: TreeNode, key: string): TreeNode {
  return field(document, root, key);
}

function field(document: Document, map: TreeNode, key: string): TreeNode {
  return resolveAlias(document, (findPair(map, key)?.value ?? null) as TreeNode);
}

function mapPairs(document: Document, node: TreeNode): Pair[] {
  const resolved = resolveAlias(document, node);
  return isMap(resolved) ? resolved.items : [];
}

function mapItems(document: Document, node: TreeNode): Item[] {
  const resolved = resolveAlias(document, node);
  if (!isSeq(resolved)) return [];
  const items: Item[] = [];
  resolved.items.forEach((raw, index) => {
    const map = resolveAlias(document, raw as TreeNode);
    if (isMap(map)) items.push({ index, map });
  });
  return items;
}

function describeVariant(document: Document, variant: Item): string {
  const id = stringValue(field(document, variant.map, 'id'));
  return id === undefined ? `#${variant.index}` : `"${id}"`;
}
