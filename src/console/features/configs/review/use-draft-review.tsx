/**
 * The review on the draft page: its state under the heading, what Publish waits for, the
 * Review panel, and its line comments in the editor's margin.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useAuthStatus } from '../../../lib/auth';
import type { ConfigEditorHandle } from '../../../editor/editor-types';
import { configsKeys } from '../../../api/config-keys';
import { useConfig } from '../../../api/get-config';
import type { SessionConfig } from '../editing/edit-session';
import { useReviews } from '../api/reviews';
import { lineNotesOf, ReviewPanel } from './review-panel';
import { publishBlockOf } from './review-state';
import { ReviewStatus } from './review-status';

export function useDraftReview({
  config,
  editor,
  ready,
  canWrite,
  canPublish,
  onPublished,
}: {
  config: SessionConfig;
  editor: { readonly current: ConfigEditorHandle | null };
  /** The editor runs: its handle is set. */
  ready: boolean;
  canWrite: boolean;
  canPublish: boolean;
  /** An approval published the draft: the new live config's id. */
  onPublished: (publishedId: string) => void;
}): {
  status: ReactNode;
  publishBlock: string | null;
  panel: ReactNode;
} {
  const isDraft = config.kind === 'draft';
  const auth = useAuthStatus();
  const queryClient = useQueryClient();
  // The record's ETag changes with its review state, so the record read again after a
  // review step has the new state, not the browser's revalidated copy of the old one.
  const record = useConfig(isDraft ? config.id : null);
  const review = record.data?.review;

  // An edit changes the review state (changes answered, approvals reset): read it again.
  const seenRevision = useRef(config.revision);
  useEffect(() => {
    if (!isDraft || seenRevision.current === config.revision) return;
    seenRevision.current = config.revision;
    void queryClient.invalidateQueries({ queryKey: configsKeys.detail(config.id) });
    void queryClient.invalidateQueries({ queryKey: configsKeys.reviews(config.id) });
    void queryClient.invalidateQueries({ queryKey: configsKeys.list() });
  }, [isDraft, config.id, config.revision, queryClient]);

  const reviews = useReviews(isDraft ? config.id : null);
  const notes = useMemo(() => lineNotesOf(reviews.data ?? []), [reviews.data]);
  useEffect(() => {
    if (ready) editor.current?.setLineNotes(notes);
  }, [ready, notes, editor]);

  return {
    status: isDraft ? <ReviewStatus review={review} /> : null,
    publishBlock: isDraft ? publishBlockOf(review) : null,
    panel: isDraft ? (
      <ReviewPanel
        configId={config.id}
        review={review}
        canWrite={canWrite}
        canPublish={canPublish}
        email={auth.data?.email}
        onChooseLine={(line) => editor.current?.revealLine(line)}
        onPublished={onPublished}
      />
    ) : null,
  };
}
