import { describe, expect, it } from 'vitest';
import { zodIssuesToProblemErrors } from './problem';
import {
  MAX_PROMOTION_ID_LENGTH,
  MAX_PROMOTION_ITEMS,
  promotionPreviewRequestSchema,
  promotionPreviewSchema,
  promotionRequestSchema,
} from './promotions';
import { MAX_SUMMARY_LENGTH } from './config-kind';

const body = { from_account: 'acc_staging', to_account: 'acc_production' };

function refusedPaths(schema: typeof promotionPreviewRequestSchema, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`accepted: ${JSON.stringify(value).slice(0, 200)}`);
  return zodIssuesToProblemErrors(result.error.issues).map((error) => error.path);
}

describe('promotion requests', () => {
  it('takes the two accounts, and optionally a source config and the items', () => {
    expect(promotionPreviewRequestSchema.parse(body)).toEqual(body);
    const full = {
      ...body,
      from_config: 'cfg_1',
      items: [{ app: 'checkout' }, { ab_test: 'big' }],
    };
    expect(promotionPreviewRequestSchema.parse(full)).toEqual(full);
  });

  it(`takes at most ${MAX_PROMOTION_ITEMS} items`, () => {
    const items = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ app: `app-${index}` }));
    expect(
      promotionPreviewRequestSchema.safeParse({ ...body, items: items(MAX_PROMOTION_ITEMS) })
        .success,
    ).toBe(true);
    expect(
      refusedPaths(promotionPreviewRequestSchema, {
        ...body,
        items: items(MAX_PROMOTION_ITEMS + 1),
      }),
    ).toEqual(['/items']);
  });

  it('refuses an item that is not one app or one test named by an id', () => {
    for (const item of [{}, { app: 'Checkout' }, { app: 'a', ab_test: 'b' }, { test: 'a' }, 'a']) {
      const paths = refusedPaths(promotionPreviewRequestSchema, { ...body, items: [item] });
      expect(paths.length).toBeGreaterThan(0);
      for (const path of paths) expect(path).toMatch(/^\/items\/0(\/|$)/);
    }
  });

  it(`bounds account and config ids to ${MAX_PROMOTION_ID_LENGTH} characters, and needs both accounts`, () => {
    const long = 'a'.repeat(MAX_PROMOTION_ID_LENGTH + 1);
    expect(refusedPaths(promotionPreviewRequestSchema, { ...body, from_account: long })).toEqual([
      '/from_account',
    ]);
    expect(refusedPaths(promotionPreviewRequestSchema, { ...body, from_config: long })).toEqual([
      '/from_config',
    ]);
    expect(refusedPaths(promotionPreviewRequestSchema, { to_account: 'x' })).toEqual([
      '/from_account',
    ]);
    expect(refusedPaths(promotionPreviewRequestSchema, { ...body, to_account: '' })).toEqual([
      '/to_account',
    ]);
  });

  it('needs a summary of at most the draft name length to create the draft', () => {
    expect(promotionRequestSchema.safeParse({ ...body, summary: 'From staging' }).success).toBe(
      true,
    );
    expect(promotionRequestSchema.safeParse(body).success).toBe(false);
    expect(
      promotionRequestSchema.safeParse({ ...body, summary: 'a'.repeat(MAX_SUMMARY_LENGTH + 1) })
        .success,
    ).toBe(false);
  });
});

describe('the promotion preview', () => {
  it('carries differences, operations and what is not promotable', () => {
    const preview = {
      ...body,
      from_config_id: 'cfg_1',
      from_revision: 3,
      to_config_id: 'cfg_2',
      differences: [
        { item: { app: 'checkout' }, path: '/settings/theme', source: 'a', target: null },
      ],
      operations: [{ update_app: [{ id: 'checkout', settings: { theme: 'a' } }] }],
      not_promotable: [{ item: { ab_test: 'Odd id' }, reason: 'The A/B test is running' }],
    };
    expect(promotionPreviewSchema.parse(preview)).toEqual(preview);
  });
});
