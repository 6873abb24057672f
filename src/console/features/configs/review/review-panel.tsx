/**
 * The draft page's "Review" region: asking for a review, the timeline oldest first, and
 * the box to comment (perhaps on a line), approve or request changes.
 */
import { useId } from 'react';
import type { Review, ReviewState, ReviewVerdict } from '../../../../contract/reviews';
import { MAX_REVIEW_BODY_LENGTH } from '../../../../contract/reviews';
import { z } from '../../../../contract/zod';
import { Button } from '../../../components/button';
import { Form, FormTextAreaField, FormTextField, type FormMethods } from '../../../components/form';
import { Spinner } from '../../../components/spinner';
import { Time } from '../../../components/time';
import { ApiProblem, describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import type { LineNote } from '../../../editor/editor-types';
import { useAddReview, useReviews } from '../api/reviews';
import { RequestReviewForm } from './request-review-form';
import { verdictBlocksOf } from './review-state';

const reviewFormSchema = z.object({
  body: z
    .string()
    .check(
      z.trim(),
      z.maxLength(MAX_REVIEW_BODY_LENGTH, `Use at most ${MAX_REVIEW_BODY_LENGTH} characters.`),
    ),
  line: z
    .string()
    .check(z.trim(), z.regex(/^([1-9][0-9]*)?$/, 'Enter a line number from 1, or nothing.')),
});
type ReviewFormInput = z.input<typeof reviewFormSchema>;
type ReviewFormValues = z.output<typeof reviewFormSchema>;

const VERDICT_WORDS: Record<ReviewVerdict, string> = {
  approve: 'Approved',
  request_changes: 'Requested changes',
  comment: 'Commented',
};

const DONE: Record<ReviewVerdict, string> = {
  approve: 'Approved.',
  request_changes: 'Changes requested.',
  comment: 'Comment added.',
};

/** The review comments that name a line, as notes for the editor's margin. */
export function lineNotesOf(reviews: readonly Review[]): LineNote[] {
  return reviews.flatMap((review) =>
    review.line === undefined
      ? []
      : [
          {
            line: review.line,
            text: `${review.by}: ${review.body || VERDICT_WORDS[review.verdict]}`,
          },
        ],
  );
}

interface ReviewPanelProps {
  configId: string;
  review: ReviewState | undefined;
  canWrite: boolean;
  canPublish: boolean;
  /** The key's e-mail, when it has one. */
  email: string | undefined;
  /** The person chose a comment on `line`. */
  onChooseLine: (line: number) => void;
  /** An approval published the draft: the id of the new live config. */
  onPublished: (publishedId: string) => void;
}

export function ReviewPanel({
  configId,
  review,
  canWrite,
  canPublish,
  email,
  onChooseLine,
  onPublished,
}: ReviewPanelProps) {
  const headingId = useId();
  const blockId = useId();
  const reviews = useReviews(configId);
  const add = useAddReview();
  const blocks = verdictBlocksOf({ review, canPublish, email });

  const submit =
    (verdict: ReviewVerdict, form: FormMethods<ReviewFormInput, ReviewFormValues>) =>
    (values: ReviewFormValues) => {
      if (verdict === 'comment' && values.body === '') {
        form.setError('body', { message: 'Write the comment first.' });
        return;
      }
      const line = values.line === '' ? undefined : Number(values.line);
      add.mutate(
        {
          id: configId,
          review: {
            verdict,
            ...(values.body ? { body: values.body } : {}),
            ...(line === undefined ? {} : { line }),
          },
        },
        {
          onSuccess: (result) => {
            form.reset();
            if (result.published_config_id !== undefined) {
              notify('Approved and published. This version is now live.');
              onPublished(result.published_config_id);
            } else {
              notify(DONE[verdict]);
            }
          },
          onError: (error) => {
            // A line past the end is the line field's fault: say so beside it.
            if (error instanceof ApiProblem && error.code === 'line_not_found') {
              form.setError('line', { message: describeError(error) });
            }
          },
        },
      );
    };

  const verdictReason = blocks.approve ?? blocks.requestChanges;
  const lineError = add.error instanceof ApiProblem && add.error.code === 'line_not_found';
  return (
    <section className="card review-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Review</h2>
      {canWrite && <RequestReviewForm configId={configId} review={review} />}
      {reviews.isPending ? (
        <Spinner label="Loading the reviews…" />
      ) : reviews.isError ? (
        <p role="alert" className="alert alert-error">
          The reviews could not be loaded. {describeError(reviews.error)}
        </p>
      ) : reviews.data.length === 0 ? (
        <p className="muted">No reviews yet.</p>
      ) : (
        <ol className="review-timeline" aria-label="Review timeline">
          {reviews.data.map((entry) => (
            <li key={entry.id}>
              <p>
                <strong>{VERDICT_WORDS[entry.verdict]}</strong>
                {` · ${entry.by} · revision ${entry.revision} · `}
                <Time value={entry.at} />
              </p>
              {entry.body && <p className="review-body">{entry.body}</p>}
              {entry.line !== undefined && (
                <Button onClick={() => onChooseLine(entry.line ?? 1)}>
                  {`Go to line ${entry.line}`}
                </Button>
              )}
            </li>
          ))}
        </ol>
      )}
      <Form<ReviewFormInput, ReviewFormValues>
        schema={reviewFormSchema}
        defaultValues={{ body: '', line: '' }}
        onSubmit={(values, form) => submit('comment', form)(values)}
        aria-label="Add a review"
      >
        {(form) => (
          <>
            <FormTextAreaField
              name="body"
              label="Comment"
              rows={3}
              maxLength={MAX_REVIEW_BODY_LENGTH}
            />
            <FormTextField
              name="line"
              label="Line"
              hint="Optional: the line of the draft it is about."
              inputMode="numeric"
              autoComplete="off"
              className="field-narrow"
            />
            {add.isError && !lineError && (
              <p role="alert" className="alert alert-error">
                The review was not saved. {describeError(add.error)}
              </p>
            )}
            <div className="form-actions">
              <Button
                type="submit"
                pending={add.isPending && add.variables.review.verdict === 'comment'}
              >
                Comment
              </Button>
              <Button
                variant="primary"
                disabled={blocks.approve !== null || add.isPending}
                aria-describedby={blocks.approve === null ? undefined : blockId}
                onClick={() => void form.handleSubmit(submit('approve', form))()}
              >
                Approve
              </Button>
              <Button
                disabled={blocks.requestChanges !== null || add.isPending}
                aria-describedby={blocks.requestChanges === null ? undefined : blockId}
                onClick={() => void form.handleSubmit(submit('request_changes', form))()}
              >
                Request changes
              </Button>
            </div>
            {verdictReason !== null && (
              <p id={blockId} className="muted">
                {verdictReason}
              </p>
            )}
          </>
        )}
      </Form>
    </section>
  );
}
