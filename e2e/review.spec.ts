/**
 * Review before publishing (docs/console.md, "Review"): an author and a reviewer, each in a
 * browser context of their own with a key of their own account, take a draft from a review
 * request through a line comment, a request for changes and an edit to an approval that
 * publishes it. The account asks for one approval for the length of the journey.
 */
import type { Locator, Page } from '@playwright/test';
import { connectAs, expect, expectNoAxeViolations, test } from './fixtures';
import {
  ConfigApi,
  editorState,
  expectEditorText,
  saveDraft,
  typeIntoEditor,
  uniqueSuffix,
  withApp,
  type ConfigRecord,
} from './editor';
import type { Seed } from './seed';

// Two browsers each load Monaco: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

async function setPolicy(seed: Seed, approvalsRequired: number): Promise<void> {
  const response = await fetch(`${seed.baseURL}/api/v1/account/policy`, {
    method: 'PUT',
    headers: {
      authorization: `Bearer ${seed.keys.configsAdmin.secret}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ approvals_required: approvalsRequired, reset_approvals_on_edit: true }),
  });
  if (!response.ok) throw new Error(`PUT /account/policy: ${response.status}`);
}

async function openDraft(page: Page, draft: ConfigRecord): Promise<void> {
  await page.goto(`/configs/${draft.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(draft.label);
  await expectEditorText(page, draft.yaml);
}

function reviewRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Review' });
}

/** The review state under the heading. */
function reviewStatus(page: Page): Locator {
  return page.locator('.review-status');
}

/** The mark of a line comment in the editor's margin, on the row of line `line`. */
function lineNoteMark(page: Page, line: number): Locator {
  return page
    .locator('.margin-view-overlays > div', {
      has: page.locator('.line-numbers', { hasText: new RegExp(`^${line}$`) }),
    })
    .locator('.line-note-mark');
}

test.afterEach(async ({ seed }) => {
  // The other journeys of this account publish without review.
  await setPolicy(seed, 0);
});

test('an author asks for review; a reviewer comments on a line, asks for changes, then approves: the draft goes live', async ({
  page,
  seed,
  newContext,
}) => {
  await setPolicy(seed, 1);
  const author = page;
  const reviewer = await (await newContext()).newPage();
  // The author's key makes the draft: its first edit is theirs.
  const suffix = uniqueSuffix();
  const draft = await ConfigApi.of(seed, seed.keys.configsEditor).createDraft(
    `Reviewed ${suffix}`,
    [{ id: `reviewed-${suffix}`, name: 'Reviewed', platform: 'web' }],
  );
  await connectAs(author, seed.keys.configsEditor);
  await connectAs(reviewer, seed.keys.configsAdmin);

  // The author asks for a review, to be published once approved.
  await openDraft(author, draft);
  const authorReview = reviewRegion(author);
  await authorReview.getByRole('button', { name: 'Request review' }).click();
  await authorReview.getByLabel(/^Note for the reviewers/).fill('A new web app');
  await authorReview.getByLabel('Publish when approved').check();
  await authorReview.getByRole('button', { name: 'Request review' }).click();
  await expect(reviewStatus(author)).toContainText('In review · 0 of 1 approval');

  // The reviewer comments on line 3.
  await openDraft(reviewer, draft);
  await expect(reviewStatus(reviewer)).toContainText('In review · 0 of 1 approval');
  const review = reviewRegion(reviewer);
  await expectNoAxeViolations(reviewer);
  await review.getByRole('textbox', { name: 'Comment' }).fill('Is this the right app?');
  await review.getByRole('textbox', { name: 'Line', exact: true }).fill('3');
  await review.getByRole('button', { name: 'Comment' }).click();
  await expect(review.getByRole('list', { name: 'Review timeline' })).toContainText(
    'Is this the right app?',
  );

  // The author sees it at its line after a reload, and goes there from the timeline.
  await author.reload();
  await expectEditorText(author, draft.yaml);
  await expect(lineNoteMark(author, 3)).toHaveCount(1);
  await authorReview.getByRole('button', { name: 'Go to line 3' }).click();
  await expect.poll(async () => (await editorState(author))?.selection?.startLineNumber).toBe(3);

  // The reviewer asks for changes; the author edits, which answers them.
  await review.getByRole('textbox', { name: 'Comment' }).fill('Name it for the web');
  await review.getByRole('button', { name: 'Request changes' }).click();
  await expect(reviewStatus(reviewer)).toContainText('Changes requested');
  await author.reload();
  await expect(reviewStatus(author)).toContainText('Changes requested');
  const edited = withApp(draft.yaml, { id: `second-${suffix}`, name: 'Second', platform: 'web' });
  await typeIntoEditor(author, edited);
  await saveDraft(author, 'Add a second app');
  await expect(author.getByText('Saved: revision 2.')).toBeVisible();
  await expect(reviewStatus(author)).toContainText('In review · 0 of 1 approval');

  // The reviewer approves the new revision: it is published on that approval.
  await reviewer.reload();
  await expect(reviewStatus(reviewer)).toContainText('In review · 0 of 1 approval');
  await review.getByRole('button', { name: 'Approve' }).click();
  await expect(
    reviewer.getByText('Approved and published. This version is now live.'),
  ).toBeVisible();
  await expect(reviewer).not.toHaveURL(new RegExp(draft.id));
  const live = await ConfigApi.of(seed).live();
  expect(live.base_config_id).toBe(draft.id);
  expect(live.yaml).toContain(`second-${suffix}`);
});
