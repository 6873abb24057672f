import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { actionKeyOf, isLifecycleAction, type Operation } from '../../contract/operations';
import { applyEdit } from '../edit';
import { parseConfig } from '../parse';
import { NOW } from '../testing/apply-helpers';
import { validConfigArb, type Data } from '../testing/config-arbitraries';
import { validateConfigText } from '../validation/validate';
import {
  AB_TEST_DEFINITION_FIELDS,
  AB_TEST_LIFECYCLE_FIELDS,
  itemKey,
  planPromotion,
  type PromotionItem,
} from './promotion';

// Small pools of ids, so that source and target share many apps and tests.
const APP_IDS = ['checkout', 'search', 'cart', 'home', 'profile', 'admin', 'feed', 'help'];
const TEST_IDS = ['big-button', 'new-copy', 'layout', 'colours', 'onboarding'];

/** A valid config whose ids come from the pools (tests renamed along with their apps). */
const pooledConfigArb: fc.Arbitrary<Data> = validConfigArb.chain((config) => {
  const apps = (config.apps as Data[] | undefined) ?? [];
  const tests = (config.ab_tests as Data[] | undefined) ?? [];
  const pick = (pool: string[], count: number) =>
    fc.shuffledSubarray(pool, { minLength: count, maxLength: count });
  return fc
    .tuple(pick(APP_IDS, apps.length), pick(TEST_IDS, tests.length))
    .map(([appIds, testIds]) => {
      const renamed = new Map(apps.map((app, index) => [app.id, appIds[index]]));
      const result: Data = { ...config };
      if (config.apps) result.apps = apps.map((app) => ({ ...app, id: renamed.get(app.id) }));
      if (config.ab_tests) {
        result.ab_tests = tests.map((test, index) => ({
          ...test,
          id: testIds[index],
          app: renamed.get(test.app),
        }));
      }
      return result;
    });
});

/** Data as it reads back from YAML (the service plans on parsed configs). */
const asRead = (config: Data): Data => parseDocument(stringify(config)).toJS() as Data;

/**
 * Source and target: independent configs from the same pools, where the source sometimes
 * takes the target's version of an item (identical, or differing in its lifecycle alone).
 */
const pairArb = fc
  .tuple(pooledConfigArb, pooledConfigArb, fc.array(fc.boolean(), { minLength: 13, maxLength: 13 }))
  .map(([source, target, copies]) => {
    const copy = (key: 'apps' | 'ab_tests', offset: number, keepStatus: boolean) => {
      const list = source[key] as Data[] | undefined;
      const theirs = (target[key] as Data[] | undefined) ?? [];
      if (!list) return;
      source[key] = list.map((item, index) => {
        const match = theirs.find((other) => other.id === item.id);
        if (!match || !copies[offset + index]) return item;
        const copied = structuredClone(match);
        if (keepStatus) {
          for (const field of AB_TEST_LIFECYCLE_FIELDS) {
            if (item[field] === undefined) Reflect.deleteProperty(copied, field);
            else copied[field] = item[field];
          }
        }
        return copied;
      });
    };
    copy('apps', 0, false);
    copy('ab_tests', 8, true);
    return { source: asRead(source), target: asRead(target) };
  })
  // A copied test keeps the source's app and status, which must still make a valid config.
  .filter(({ source, target }) =>
    [source, target].every((config) => validateConfigText(stringify(config)).valid),
  );

const allItems = (...configs: Data[]): PromotionItem[] => {
  const keys = new Map<string, PromotionItem>();
  for (const config of configs) {
    for (const app of (config.apps as Data[] | undefined) ?? []) {
      keys.set(`app:${String(app.id)}`, { app: app.id as string });
    }
    for (const test of (config.ab_tests as Data[] | undefined) ?? []) {
      keys.set(`ab_test:${String(test.id)}`, { ab_test: test.id as string });
    }
  }
  return [...keys.values()];
};

const byId = (config: Data, key: 'apps' | 'ab_tests', id: string): Data | undefined =>
  ((config[key] as Data[] | undefined) ?? []).find((item) => item.id === id);

const pick = (test: Data | undefined, fields: readonly string[]) =>
  test && Object.fromEntries(fields.flatMap((f) => (test[f] === undefined ? [] : [[f, test[f]]])));

describe('promotion, for any valid source and target', () => {
  it('gives draft operations the target accepts, which make the promoted items equal to the source and leave the rest alone', () => {
    fc.assert(
      fc.property(
        pairArb.chain((pair) =>
          fc.record({
            pair: fc.constant(pair),
            items: fc.option(fc.subarray(allItems(pair.source, pair.target)), { nil: undefined }),
          }),
        ),
        ({ pair: { source, target }, items }) => {
          const plan = planPromotion(source, target, items);
          expect(planPromotion(source, target, items)).toEqual(plan);
          expect(plan.operations.some((op) => isLifecycleAction(actionKeyOf(op)))).toBe(false);
          // One operation per phase at most, whatever the size of the configs.
          const actions = plan.operations.map(actionKeyOf);
          expect(actions.length).toBeLessThanOrEqual(9);
          expect(actions.every((action, index) => action !== actions[index - 1])).toBe(true);

          // Applied as the draft edit applies them: the operations as they travel, then
          // the edit's own validation of the draft.
          const wire = JSON.parse(JSON.stringify(plan.operations)) as Operation[];
          const edit = applyEdit({ parsed: parseConfig(stringify(target)) }, wire, {
            now: NOW,
            source: { type: 'draft', name: 'Promotion' },
          });
          if (edit.kind !== 'applied') throw new Error(`not applied: ${JSON.stringify(edit)}`);
          const result = (edit.document.toJS() as Data | null) ?? {};

          const travelled = new Set(plan.items.map(itemKey));
          const blocked = new Set(plan.not_promotable.map(({ item }) => itemKey(item)));
          for (const item of allItems(source, target)) {
            const key = itemKey(item);
            expect(travelled.has(key) && blocked.has(key)).toBe(false);
            if (items && !items.some((chosen) => itemKey(chosen) === key)) {
              expect(travelled.has(key) || blocked.has(key)).toBe(false);
            }
            if ('app' in item) {
              const expected = byId(travelled.has(key) ? source : target, 'apps', item.app);
              expect(byId(result, 'apps', item.app)).toEqual(expected);
              continue;
            }
            const after = byId(result, 'ab_tests', item.ab_test);
            const before = byId(target, 'ab_tests', item.ab_test);
            if (!travelled.has(key)) {
              expect(after).toEqual(before);
              continue;
            }
            const wanted = byId(source, 'ab_tests', item.ab_test);
            expect(pick(after, AB_TEST_DEFINITION_FIELDS)).toEqual(
              pick(wanted, AB_TEST_DEFINITION_FIELDS),
            );
            // The lifecycle stays the target's; a test new there is a draft.
            if (after) {
              expect(pick(after, AB_TEST_LIFECYCLE_FIELDS)).toEqual(
                before ? pick(before, AB_TEST_LIFECYCLE_FIELDS) : { status: 'draft' },
              );
            }
          }

          expect(edit.report.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
          // Nothing is left to promote of what travelled.
          expect(planPromotion(source, result, plan.items).operations).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
