/**
 * A/B test actions: `create_ab_test` lands in a draft like an ordinary edit;
 * the lifecycle steps move a test along this table and their result is published.
 *
 *   update_ab_test   draft (description, variants, metrics, guardrails), running (all but
 *                    variants: what a test is judged on does not change who sees what)
 *   start_ab_test    draft            -> running, started_at = now
 *   end_ab_test      running          -> ended, ended_at = now
 *   promote_ab_test  running | ended  -> promoted, winner, the winner's settings copied into
 *                                        its app, ended_at if unset
 *   delete_ab_test   draft | ended | promoted -> removed
 */
import { isMap, isSeq, type YAMLMap } from 'yaml';
import type { AbTestStatus } from '../../contract/config-document';
import { LIFECYCLE_TRANSITIONS, type LifecycleAction } from '../../contract/operations';
import { keyString, resolveAlias, type TreeNode } from '../yaml-tree';
import type { ApplyContext, ListEntry } from './apply-context';
import { field, requireId, setField } from './app-actions';
import { refuse } from './refusal';

type Item = Readonly<Record<string, unknown>>;

export function createAbTest(context: ApplyContext, item: Item): void {
  const id = requireId(item);
  const tests = context.list('ab_tests');
  if (tests.find(id)) {
    throw refuse.conflict('ab_test.id_taken', `An A/B test with the id "${id}" already exists`);
  }
  // Written as given, in the config's usual key order, with the status a new test has.
  const { status: _ignored, ...rest } = item;
  const { id: _id, app, description, ...others } = rest;
  const test: Record<string, unknown> = { id };
  if ('app' in rest) test.app = app;
  if ('description' in rest) test.description = description;
  test.status = 'draft' satisfies AbTestStatus;
  Object.assign(test, others);
  const index = tests.append(test);
  context.touch(['ab_tests', index]);
}

/** What update_ab_test changes; a null removes the field. */
export const UPDATABLE_TEST_FIELDS = ['description', 'variants', 'metrics', 'guardrails'] as const;

export function updateAbTest(context: ApplyContext, item: Item): void {
  const test = findTest(context, item);
  const status = stepAllowed('update_ab_test', test, context);
  const unknown = Object.keys(item).filter(
    (key) => key !== 'id' && !(UPDATABLE_TEST_FIELDS as readonly string[]).includes(key),
  );
  if (unknown.length > 0) {
    throw refuse.badItem(
      `update_ab_test changes only ${UPDATABLE_TEST_FIELDS.join(', ')}, not ${unknown.join(', ')}`,
    );
  }
  if ('variants' in item && status !== 'draft') {
    throw refuse.notAllowed(
      'ab_test.invalid_transition',
      `The variants of A/B test "${test.id}" cannot change while it is ${status}; only its description and metrics can`,
    );
  }
  for (const key of UPDATABLE_TEST_FIELDS) {
    if (!(key in item)) continue;
    if (item[key] === null) {
      context.removePair(test.map, key);
    } else {
      setField(context, test.map, key, item[key]);
    }
    context.touch(['ab_tests', test.index, key]);
  }
}

export function startAbTest(context: ApplyContext, item: Item): void {
  stepWithTimestamp(context, item, 'start_ab_test', 'running', 'started_at');
}

export function endAbTest(context: ApplyContext, item: Item): void {
  stepWithTimestamp(context, item, 'end_ab_test', 'ended', 'ended_at');
}

/** A step that moves the test to `status` and stamps `field` with the clock. */
function stepWithTimestamp(
  context: ApplyContext,
  item: Item,
  action: LifecycleAction,
  status: AbTestStatus,
  field: 'started_at' | 'ended_at',
): void {
  const test = findTest(context, item);
  stepAllowed(action, test, context);
  setStatus(context, test, status);
  setField(context, test.map, field, context.now.toISOString());
  context.touch(['ab_tests', test.index, field]);
}

export function promoteAbTest(context: ApplyContext, item: Item): void {
  const test = findTest(context, item);
  stepAllowed('promote_ab_test', test, context);
  if (typeof item.variant !== 'string')
    throw refuse.badItem('promote_ab_test needs a string "variant"');
  const variantId = item.variant;
  const variant = variantsOf(context, test.map).find(
    (map) => field(context, map, 'id') === variantId,
  );
  if (!variant) {
    throw refuse.notFound(
      'ab_test.unknown_variant',
      `A/B test "${test.id}" has no variant "${variantId}"`,
    );
  }
  const appId = field(context, test.map, 'app');
  const app = appId === undefined ? undefined : context.list('apps').find(appId);
  if (!app) {
    throw refuse.notFound(
      'app.not_found',
      `The app "${appId ?? ''}" of A/B test "${test.id}" does not exist`,
    );
  }

  // The winner's overrides become the app's settings.
  const overrides = resolveAlias(
    context.document,
    (context.pair(variant, 'settings')?.value ?? null) as TreeNode,
  );
  if (isMap(overrides) && overrides.items.length > 0) {
    let settings = resolveAlias(
      context.document,
      (context.pair(app.map, 'settings')?.value ?? null) as TreeNode,
    );
    if (!isMap(settings)) {
      settings = context.createNode({}) as YAMLMap;
      setField(context, app.map, 'settings', settings);
    }
    for (const pair of overrides.items) {
      const key = keyString(pair);
      const value = resolveAlias(context.document, (pair.value ?? null) as TreeNode);
      setField(context, settings as YAMLMap, key, value === null ? null : value.clone());
      context.touch(['apps', app.index, 'settings', key]);
    }
  }

  setStatus(context, test, 'promoted');
  setField(context, test.map, 'winner', variantId);
  context.touch(['ab_tests', test.index, 'winner']);
  if (!context.pair(test.map, 'ended_at')) {
    setField(context, test.map, 'ended_at', context.now.toISOString());
    context.touch(['ab_tests', test.index, 'ended_at']);
  }
}

export function deleteAbTest(context: ApplyContext, item: Item): void {
  const test = findTest(context, item);
  stepAllowed('delete_ab_test', test, context);
  context.list('ab_tests').remove(test);
  context.touch(['ab_tests', test.index]);
}

interface TestEntry extends ListEntry {
  readonly id: string;
}

function findTest(context: ApplyContext, item: Item): TestEntry {
  const id = requireId(item);
  const entry = context.list('ab_tests').find(id);
  if (!entry)
    throw refuse.notFound('ab_test.not_found', `There is no A/B test with the id "${id}"`);
  return { ...entry, id };
}

/** Refuses a step the test's status does not allow; returns the status. */
function stepAllowed(
  action: LifecycleAction,
  test: TestEntry,
  context: ApplyContext,
): AbTestStatus {
  const status = field(context, test.map, 'status');
  const allowed = LIFECYCLE_TRANSITIONS[action];
  if (!allowed.includes(status as AbTestStatus)) {
    throw refuse.notAllowed(
      'ab_test.invalid_transition',
      `${action} is not allowed for A/B test "${test.id}" while it is ${status ?? 'without a status'}; allowed from: ${allowed.join(', ')}`,
    );
  }
  return status as AbTestStatus;
}

function setStatus(context: ApplyContext, test: TestEntry, status: AbTestStatus): void {
  setField(context, test.map, 'status', status);
  context.touch(['ab_tests', test.index, 'status']);
}

function variantsOf(context: ApplyContext, test: YAMLMap): YAMLMap[] {
  const list = resolveAlias(
    context.document,
    (context.pair(test, 'variants')?.value ?? null) as TreeNode,
  );
  if (!isSeq(list)) return [];
  return list.items
    .map((item) => resolveAlias(context.document, item as TreeNode))
    .filter((node): node is YAMLMap => isMap(node));
}
