/**
 * Promotion: the differences between a source config and a target's live config, item by
 * item (apps and A/B tests), and the ordinary draft operations that make the chosen items of
 * the target equal to the source's (docs/environments.md, "What a promotion carries").
 *
 * Pure: configs in as data, a plan out. A test's lifecycle (status, winner, timestamps) never
 * travels, and nothing here publishes: the operations are the ones a draft edit accepts.
 */
import type { ActionKey, Operation } from '../../contract/operations';
import { deepEqual, isPlainObject, type PlainObject } from '../data';
import { toPointer, type PathSegment } from '../json-pointer';

export type PromotionItem = { readonly app: string } | { readonly ab_test: string };

/** One place where the source and the target differ; `null` stands for "absent". */
export interface PromotionDifference {
  readonly item: PromotionItem;
  /** A JSON Pointer within the item (`/settings/theme`); `''` for the whole item. */
  readonly path: string;
  readonly source: unknown;
  readonly target: unknown;
}

export interface NotPromotable {
  readonly item: PromotionItem;
  /** Why, in words a person can act on. */
  readonly reason: string;
}

export interface PromotionPlan {
  /** Every difference of the items considered, those not promotable included. */
  readonly differences: PromotionDifference[];
  /** Ordinary draft operations for the target, in the order they must apply. */
  readonly operations: Operation[];
  readonly not_promotable: NotPromotable[];
  /** The items that differ and travel, in the order of `differences`. */
  readonly items: PromotionItem[];
}

/**
 * The fields of a test that make its definition, the only ones that travel. A field the
 * config gains travels once it is named here. What a test is judged on (its goal and
 * guardrail metrics) is part of it; the target account needs metrics of the same ids.
 */
export const AB_TEST_DEFINITION_FIELDS = [
  'app',
  'description',
  'variants',
  'metrics',
  'guardrails',
] as const;

/** A test's lifecycle: set by lifecycle operations in each account, never promoted. */
export const AB_TEST_LIFECYCLE_FIELDS = ['status', 'winner', 'started_at', 'ended_at'] as const;

export function itemKey(item: PromotionItem): string {
  return 'app' in item ? `app:${item.app}` : `ab_test:${item.ab_test}`;
}

/**
 * Plans the promotion of `items` (default: every app and test that differs) from `source`
 * to `target`, both config data as read from YAML. An item named that differs in nothing,
 * or exists on neither side, is left alone and not reported.
 */
export function planPromotion(
  source: unknown,
  target: unknown,
  items?: readonly PromotionItem[],
): PromotionPlan {
  const chosen = items === undefined ? undefined : new Set(items.map(itemKey));
  const isChosen = (item: PromotionItem) => chosen === undefined || chosen.has(itemKey(item));
  const sourceApps = entriesOf(source, 'apps');
  const targetApps = entriesOf(target, 'apps');
  const sourceTests = entriesOf(source, 'ab_tests');
  const targetTests = entriesOf(target, 'ab_tests');

  const apps = differingItems(sourceApps, targetApps, (id) => ({ app: id }), appDifferences);
  const tests = differingItems(
    sourceTests,
    targetTests,
    (id) => ({ ab_test: id }),
    testDifferences,
  );
  const considered = [...apps, ...tests].filter((change) => isChosen(change.item));

  const notPromotable = new Map<string, string>();
  for (const change of considered) {
    const status = change.target?.value.status;
    if ('ab_test' in change.item && change.target && status !== 'draft') {
      notPromotable.set(itemKey(change.item), lockedTestReason(status, !change.source));
    }
  }
  settleDependencies(considered, targetApps, targetTests, notPromotable);

  const travelling = considered.filter((change) => !notPromotable.has(itemKey(change.item)));
  return {
    differences: considered.flatMap((change) => change.differences),
    operations: operationsFor(travelling, targetApps, targetTests),
    not_promotable: considered.flatMap((change) => {
      const reason = notPromotable.get(itemKey(change.item));
      return reason === undefined ? [] : [{ item: change.item, reason }];
    }),
    items: travelling.map((change) => change.item),
  };
}

/** An app or test of one side: its data and its index in that side's list. */
interface Entry {
  readonly id: string;
  readonly index: number;
  readonly value: PlainObject;
}

/** Entries by id, the first of a repeated id winning (as the typed actions find them). */
function entriesOf(config: unknown, key: 'apps' | 'ab_tests'): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const list = isPlainObject(config) ? config[key] : undefined;
  if (!Array.isArray(list)) return entries;
  list.forEach((value: unknown, index) => {
    if (isPlainObject(value) && typeof value.id === 'string' && !entries.has(value.id)) {
      entries.set(value.id, { id: value.id, index, value });
    }
  });
  return entries;
}

/** An item that differs: its two sides (absent when it exists on one only). */
interface Change {
  readonly item: PromotionItem;
  readonly source: Entry | undefined;
  readonly target: Entry | undefined;
  readonly differences: PromotionDifference[];
}

/** The items that differ: the source's in its order, then those only the target has. */
function differingItems(
  source: ReadonlyMap<string, Entry>,
  target: ReadonlyMap<string, Entry>,
  itemOf: (id: string) => PromotionItem,
  differencesOf: (source: PlainObject, target: PlainObject) => Difference[],
): Change[] {
  const changes: Change[] = [];
  const add = (id: string, from: Entry | undefined, to: Entry | undefined) => {
    const item = itemOf(id);
    const differences: PromotionDifference[] =
      from && to
        ? differencesOf(from.value, to.value).map(({ path, before, after }) => ({
            item,
            path: toPointer(path),
            source: after ?? null,
            target: before ?? null,
          }))
        : [
            {
              item,
              path: '',
              source: from ? promotedView(item, from.value) : null,
              target: to ? promotedView(item, to.value) : null,
            },
          ];
    if (differences.length > 0) changes.push({ item, source: from, target: to, differences });
  };
  for (const entry of source.values()) add(entry.id, entry, target.get(entry.id));
  for (const entry of target.values()) if (!source.has(entry.id)) add(entry.id, undefined, entry);
  return changes;
}

/** A difference inside an item: `before` is the target's value, `after` the source's. */
interface Difference {
  readonly path: PathSegment[];
  readonly before: unknown;
  readonly after: unknown;
}

/** Field by field; settings key by key when both sides hold a mapping. */
function appDifferences(source: PlainObject, target: PlainObject): Difference[] {
  const differences: Difference[] = [];
  for (const field of unionKeys(target, source)) {
    if (field === 'id' || deepEqual(source[field], target[field])) continue;
    const before = target[field];
    const after = source[field];
    if (field === 'settings' && isPlainObject(before) && isPlainObject(after)) {
      for (const key of unionKeys(before, after)) {
        if (!deepEqual(before[key], after[key])) {
          differences.push({ path: ['settings', key], before: before[key], after: after[key] });
        }
      }
    } else {
      differences.push({ path: [field], before, after });
    }
  }
  return differences;
}

/** Definition fields only: a test differing in its lifecycle alone does not differ. */
function testDifferences(source: PlainObject, target: PlainObject): Difference[] {
  return AB_TEST_DEFINITION_FIELDS.filter((field) => !deepEqual(source[field], target[field])).map(
    (field): Difference => ({ path: [field], before: target[field], after: source[field] }),
  );
}

/** What of an item a whole-item difference shows: an app whole, a test's definition. */
function promotedView(item: PromotionItem, value: PlainObject): PlainObject {
  return 'app' in item ? value : definitionOf(value);
}

function definitionOf(test: PlainObject): PlainObject {
  const definition: PlainObject = { id: test.id };
  for (const field of AB_TEST_DEFINITION_FIELDS) {
    if (test[field] !== undefined) definition[field] = test[field];
  }
  return definition;
}

function lockedTestReason(status: unknown, removal: boolean): string {
  const change = removal ? 'remove' : 'change';
  switch (status) {
    case 'running':
      return removal
        ? 'The A/B test is running in the target, and a draft cannot remove a running test: end it there, then delete it'
        : 'The A/B test is running in the target, and a draft cannot change a running test: end it there first';
    case 'ended':
    case 'promoted':
      return `The A/B test has ${status === 'ended' ? 'ended' : 'been promoted'} in the target; its definition is the record of what ran, so a draft does not ${change} it${removal ? ' (delete it there)' : ''}`;
    default:
      return `The A/B test in the target is not a draft, so a draft cannot ${change} it`;
  }
}

/**
 * Marks what cannot travel because of another item: an app removal that a remaining test
 * still needs, a test whose app would not be in the target. Marking one item can strand
 * another (a test left as it is keeps its app), so it repeats until nothing new is marked;
 * app removals are judged first, since keeping an app strands nothing.
 */
function settleDependencies(
  considered: readonly Change[],
  targetApps: ReadonlyMap<string, Entry>,
  targetTests: ReadonlyMap<string, Entry>,
  notPromotable: Map<string, string>,
): void {
  for (;;) {
    const travelling = considered.filter((change) => !notPromotable.has(itemKey(change.item)));
    const appsAfter = new Set(targetApps.keys());
    const testsAfter = new Map<string, PlainObject>(
      [...targetTests.values()].map((entry) => [entry.id, entry.value]),
    );
    for (const { item, source } of travelling) {
      if ('app' in item) {
        if (source) appsAfter.add(item.app);
        else appsAfter.delete(item.app);
      } else if (source) testsAfter.set(item.ab_test, source.value);
      else testsAfter.delete(item.ab_test);
    }
    // The first test (in the target's order, then the source's) that uses each app.
    const appUsers = new Map<unknown, string>();
    for (const [id, test] of testsAfter) if (!appUsers.has(test.app)) appUsers.set(test.app, id);
    const marks = (['app', 'ab_test'] as const)
      .map((kind) =>
        travelling.flatMap((change) => {
          if (!(kind in change.item)) return [];
          const reason = dependencyReason(change, appsAfter, appUsers);
          return reason === undefined ? [] : [[itemKey(change.item), reason] as const];
        }),
      )
      .find((found) => found.length > 0);
    if (!marks) return;
    for (const [key, reason] of marks) notPromotable.set(key, reason);
  }
}

function dependencyReason(
  change: Change,
  appsAfter: ReadonlySet<string>,
  appUsers: ReadonlyMap<unknown, string>,
): string | undefined {
  if ('app' in change.item) {
    if (change.source) return undefined;
    const appId = change.item.app;
    const user = appUsers.get(appId);
    return user !== undefined
      ? `The A/B test "${user}" in the target uses this app; promote its removal or its move to another app too, or keep the app`
      : undefined;
  }
  if (!change.source) return undefined;
  const appId = change.source.value.app;
  if (typeof appId !== 'string') return 'The A/B test names no app in the source';
  return appsAfter.has(appId)
    ? undefined
    : `The A/B test's app "${appId}" is not in the target; promote the app too`;
}

/**
 * The operations in phases, each phase one action with its items in the source's order:
 * apps changed then created, tests changed then created, then test removals (from the
 * highest index down) and app removals. Creations append and removals come last, so every
 * pointer names the target's index and stays right; a plan holds at most nine operations.
 */
function operationsFor(
  travelling: readonly Change[],
  targetApps: ReadonlyMap<string, Entry>,
  targetTests: ReadonlyMap<string, Entry>,
): Operation[] {
  const phases = {
    updateApps: [] as PlainObject[],
    setInApps: [] as PlainObject[],
    unsetInApps: [] as PlainObject[],
    createApps: [] as PlainObject[],
    setInTests: [] as PlainObject[],
    unsetInTests: [] as PlainObject[],
    createTests: [] as PlainObject[],
    removeTests: [] as Entry[],
    removeApps: [] as PlainObject[],
  };
  for (const { item, source, target } of travelling) {
    if ('app' in item) {
      if (!source) phases.removeApps.push({ id: item.app });
      else if (!target) phases.createApps.push({ ...source.value });
      else {
        const index = targetApps.get(item.app)?.index ?? 0;
        const { update, set, unset } = appUpdate(source.value, target.value, index);
        if (Object.keys(update).length > 1) phases.updateApps.push(update);
        phases.setInApps.push(...set);
        phases.unsetInApps.push(...unset);
      }
    } else if (!source) {
      if (target) phases.removeTests.push(target);
    } else if (!target) {
      phases.createTests.push(definitionOf(source.value));
    } else {
      const index = targetTests.get(item.ab_test)?.index ?? 0;
      for (const field of AB_TEST_DEFINITION_FIELDS) {
        const value = source.value[field];
        if (deepEqual(value, target.value[field])) continue;
        const path = toPointer(['ab_tests', index, field]);
        if (value === undefined) phases.unsetInTests.push({ path });
        else phases.setInTests.push({ path, value });
      }
    }
  }
  const removedTests = phases.removeTests
    .sort((a, b) => b.index - a.index)
    .map((test) => ({ path: toPointer(['ab_tests', test.index]) }));
  const ordered: [ActionKey, PlainObject[]][] = [
    ['update_app', phases.updateApps],
    ['set', phases.setInApps],
    ['unset', phases.unsetInApps],
    ['create_app', phases.createApps],
    ['set', phases.setInTests],
    ['unset', phases.unsetInTests],
    ['create_ab_test', phases.createTests],
    ['unset', removedTests],
    ['delete_app', phases.removeApps],
  ];
  const operations: { action: ActionKey; items: PlainObject[] }[] = [];
  for (const [action, items] of ordered) {
    if (items.length === 0) continue;
    const last = operations.at(-1);
    if (last?.action === action) last.items.push(...items);
    else operations.push({ action, items: [...items] });
  }
  return operations.map(({ action, items }) => ({ [action]: items }) as Operation);
}

/** One `update_app` item for the fields it can write; set/unset for what it cannot say. */
function appUpdate(source: PlainObject, target: PlainObject, index: number) {
  const update: PlainObject = { id: source.id };
  const set: PlainObject[] = [];
  const unset: PlainObject[] = [];
  for (const field of unionKeys(target, source)) {
    if (field === 'id' || deepEqual(source[field], target[field])) continue;
    const before = target[field];
    const after = source[field];
    const path = (...more: PathSegment[]) => toPointer(['apps', index, field, ...more]);
    if (after === undefined) {
      unset.push({ path: path() });
    } else if (field === 'settings' && isPlainObject(before) && isPlainObject(after)) {
      const settings: PlainObject = {};
      for (const key of unionKeys(before, after)) {
        if (deepEqual(before[key], after[key])) continue;
        // In update_app a null removes the key: a null value itself needs a set.
        if (after[key] === null) set.push({ path: path(key), value: null });
        else settings[key] = after[key] === undefined ? null : after[key];
      }
      if (Object.keys(settings).length > 0) update.settings = settings;
    } else if (field === 'settings') {
      set.push({ path: path(), value: after });
    } else {
      update[field] = after;
    }
  }
  return { update, set, unset };
}

function unionKeys(a: PlainObject, b: PlainObject): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])];
}
