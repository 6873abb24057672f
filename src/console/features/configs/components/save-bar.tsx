import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { MAX_SUMMARY_LENGTH } from '../../../../contract/config-edit';
import { Link } from 'react-router';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/form-fields';
import { ErrorAlert } from '../../../components/error-alert';

export const PUBLISH_BLOCKED = 'Fix the errors before publishing.';

interface Toggle {
  readonly shown: boolean;
  /** The id of the region it shows. */
  readonly controls: string;
  readonly toggle: () => void;
}

interface SaveBarProps {
  configId: string;
  isDraft: boolean;
  /** The saved config has no errors. */
  valid: boolean;
  canWrite: boolean;
  canPublish: boolean;
  /** The editor runs: its text can be saved and compared. */
  ready: boolean;
  /** The editor holds unsaved edits: only then is there something to save. */
  dirty: boolean;
  saving: boolean;
  summary: { field: UseFormRegisterReturn<'summary'>; error: string | undefined };
  /** Why the last save did not go through, in words. */
  alert: string | null;
  operations: Toggle;
  changes: Toggle;
  /** Why the draft cannot be published yet for its review (missing approvals), or null. */
  reviewBlock?: string | null;
  onPublish: () => void;
  /** Given where schedules are offered: "Schedule publish…" sits beside Publish. */
  onSchedulePublish?: (() => void) | undefined;
}

/** A button that shows and hides one of the page's panels. */
function PanelToggle({
  label,
  toggle: { shown, controls, toggle },
  disabled,
}: {
  label: string;
  toggle: Toggle;
  disabled: boolean;
}) {
  return (
    <Button
      aria-expanded={shown}
      aria-controls={shown ? controls : undefined}
      disabled={disabled}
      onClick={toggle}
    >
      {label}
    </Button>
  );
}

/** Under the editor: the summary, Save draft (a submit button), and the page's actions. */
export function SaveBar({
  configId,
  isDraft,
  valid,
  canWrite,
  canPublish,
  ready,
  dirty,
  saving,
  summary,
  alert,
  operations,
  changes,
  reviewBlock = null,
  onPublish,
  onSchedulePublish,
}: SaveBarProps) {
  const publishHintId = useId();
  const id = encodeURIComponent(configId);
  const publishBlocked = !valid || reviewBlock !== null;
  const publishHint = publishBlocked ? publishHintId : undefined;
  // A publish may be scheduled before its approvals arrive: the review policy is checked
  // when it runs. A draft with errors cannot be published then either.
  const scheduleHint = valid ? undefined : publishHintId;
  return (
    <>
      {canWrite && (
        <TextField
          label="Summary"
          hint="Required to save: say what the edit does."
          autoComplete="off"
          maxLength={MAX_SUMMARY_LENGTH}
          error={summary.error}
          {...summary.field}
        />
      )}
      <ErrorAlert>{alert}</ErrorAlert>
      <div className="form-actions">
        {canWrite && (
          <Button type="submit" variant="primary" pending={saving} disabled={!ready || !dirty}>
            Save draft
          </Button>
        )}
        <PanelToggle label="Show operations" toggle={operations} disabled={!ready} />
        <PanelToggle label="Show changes" toggle={changes} disabled={!ready} />
        {isDraft && canPublish && (
          <Button disabled={publishBlocked} aria-describedby={publishHint} onClick={onPublish}>
            Publish
          </Button>
        )}
        {isDraft && canPublish && onSchedulePublish && (
          <Button disabled={!valid} aria-describedby={scheduleHint} onClick={onSchedulePublish}>
            Schedule publish…
          </Button>
        )}
        <Link className="button button-secondary" to={`/configs/${id}/history`}>
          History
        </Link>
        {isDraft && canWrite && (
          <Link className="button button-secondary" to={`/ab-tests/new?config=${id}`}>
            New A/B test in this draft
          </Link>
        )}
      </div>
      {isDraft && (!valid || (canPublish && reviewBlock !== null)) && (
        <p id={publishHintId} className="warning-text">
          {valid ? reviewBlock : PUBLISH_BLOCKED}
        </p>
      )}
    </>
  );
}
