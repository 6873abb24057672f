import { describe, expect, it } from 'vitest';
import type { ReviewState } from '../../../../contract/reviews';
import { publishBlockOf, reviewStatusOf, verdictBlocksOf } from './review-state';

const state = (fields: Partial<ReviewState>): ReviewState => ({
  state: 'in_review',
  approvals: 0,
  approvals_required: 2,
  requested_by: 'ana@example.com',
  ...fields,
});

describe("a draft's review state in words", () => {
  it('counts the approvals while in review, and names the other states', () => {
    expect(reviewStatusOf(state({ approvals: 1 }))).toBe('In review · 1 of 2 approvals');
    expect(reviewStatusOf(state({ approvals_required: 1 }))).toBe('In review · 0 of 1 approval');
    expect(reviewStatusOf(state({ approvals_required: 0 }))).toBe('In review');
    expect(reviewStatusOf(state({ approvals: 1 }), { short: true })).toBe('In review · 1 of 2');
    expect(reviewStatusOf(state({ state: 'changes_requested' }))).toBe('Changes requested');
    expect(reviewStatusOf(state({ state: 'approved', approvals: 2 }))).toBe('Approved');
    expect(reviewStatusOf(state({ state: 'none' }))).toBeNull();
    expect(reviewStatusOf(undefined)).toBeNull();
  });

  it('says what Publish waits for, and nothing once enough approvals count or none are needed', () => {
    expect(publishBlockOf(state({ approvals: 1 }))).toBe('Needs 1 more approval: 1 of 2.');
    expect(publishBlockOf(state({ state: 'none' }))).toBe(
      'Needs 2 more approvals: 0 of 2. Request a review first.',
    );
    expect(publishBlockOf(state({ state: 'changes_requested', approvals: 2 }))).toMatch(
      /^Changes were requested/,
    );
    expect(publishBlockOf(state({ state: 'approved', approvals: 2 }))).toBeNull();
    expect(publishBlockOf(state({ state: 'none', approvals_required: 0 }))).toBeNull();
  });

  it('greys the verdicts without config:publish or a request, and Approve for whoever asked', () => {
    const review = state({});
    expect(verdictBlocksOf({ review, canPublish: true, email: 'ada@example.com' })).toEqual({
      approve: null,
      requestChanges: null,
    });
    const own = verdictBlocksOf({ review, canPublish: true, email: 'ana@example.com' });
    expect(own.approve).toMatch(/someone else approves/);
    expect(own.requestChanges).toBeNull();
    const readOnly = verdictBlocksOf({ review, canPublish: false, email: undefined });
    expect(readOnly.approve).toMatch(/config:publish/);
    expect(readOnly.requestChanges).toMatch(/config:publish/);
    const none = verdictBlocksOf({
      review: state({ state: 'none' }),
      canPublish: true,
      email: undefined,
    });
    expect(none.approve).toMatch(/No review/);
  });
});
