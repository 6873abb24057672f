/**
 * The editor page once its config is loaded: the editor, the save bar, the panels and the
 * dialogs, wired to the edit session (edit-session.ts) and the save mutation.
 */
import { Suspense, useId, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { ConfigRecord } from '../../../../contract/configs';
import { ErrorBoundary, RegionError } from '../../../components/error-boundary';
import { Spinner } from '../../../components/spinner';
import { useAuthStatus } from '../../../lib/auth';
import { notify } from '../../../lib/notices';
import { offers } from '../../../lib/permissions';
import type { ConfigEditorHandle } from '../../../editor/editor-types';
import { ConfigEditor } from '../../../editor/lazy-monaco';
import { EDITOR_MARKS, markEditorStep } from '../../../editor/ready-marks';
import { useDarkScheme } from '../../../editor/use-dark-scheme';
import { useConfig } from '../../../api/get-config';
import { ChangesPanel } from '../components/changes-panel';
import { ConfigHeading } from '../components/config-heading';
import { LeaveGuard } from '../components/leave-dialog';
import { NOTHING_TO_SAVE, OperationsPanel } from '../components/operations-panel';
import { ProblemsPanel } from '../components/problems-panel';
import { PublishDialog } from '../components/publish-dialog';
import { ReleasePanel } from '../components/release-panel';
import { SaveBar } from '../components/save-bar';
import { ScheduleDialog } from '../components/schedule-dialog';
import { useConfigSchedules } from '../api/schedules';
import { editConflictsOf } from '../../../api/edit-config';
import { ConflictResolution } from './conflict-resolution';
import { useEditSession, type SessionConfig } from './edit-session';
import { MergeResolution } from './merge-resolution';
import { issueOriginsOf, issuesByOperation, type SavedEdit } from './issue-origins';
import { arrivalState, highlightApplied, savedArrivalOf } from './saved-arrival';
import { primeSavedText, useEditOperations } from './use-edit-operations';
import {
  isStale,
  mergedNoticeOf,
  saveAlertOf,
  useSaveEdit,
  type SaveEditOutcome,
} from './use-save-edit';
import { useSaveShortcut } from './use-save-shortcut';
import { useSummaryForm } from './use-summary-form';
import { useAbTestSteps } from './use-ab-test-steps';
import { useDraftReview } from '../review/use-draft-review';

export const PUBLISHED_NOTICE = 'Published. This version is now live.';

/** The editor's text model, one per config page. */
export function modelPathOf(routeId: string): string {
  return `inmemory://config/${encodeURIComponent(routeId)}.yaml`;
}

export function ConfigEditorView({
  routeId,
  initial,
  schema,
}: {
  routeId: string;
  initial: ConfigRecord;
  schema: object;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const auth = useAuthStatus();
  const canWrite = offers(auth.data, 'config:write');
  const canPublish = offers(auth.data, 'config:publish');
  const dark = useDarkScheme();
  const modelPath = modelPathOf(routeId);
  const operationsId = useId();
  const changesId = useId();

  const [session, dispatch] = useEditSession(initial);
  const editor = useRef<ConfigEditorHandle | null>(null);
  const [ready, setReady] = useState(false);
  const [showChanges, setShowChanges] = useState(false);
  const [publishOpen, setPublishOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  // Set while the page itself moves on (a save made a new draft, a publish): no prompt.
  const leaving = useRef(false);
  // What a save that created this draft left for it: what to highlight, the view.
  const arrival = useRef(savedArrivalOf(location.state));
  // The last save made here and the report it got back: its issues name their operations.
  const [lastSave, setLastSave] = useState<{ edit: SavedEdit; report: object } | null>(() => {
    const save = savedArrivalOf(location.state)?.save;
    return save ? { edit: save, report: initial.validation } : null;
  });

  const operations = useEditOperations(editor, session.savedText);
  const summary = useSummaryForm();
  const save = useSaveEdit({ routeId, diff: operations.diff });
  const abTestSteps = useAbTestSteps(session);
  const review = useDraftReview({
    config: session.config,
    editor,
    ready,
    canWrite,
    canPublish,
    onPublished: (publishedId) => {
      leaving.current = true;
      void navigate(`/configs/${encodeURIComponent(publishedId)}`);
    },
  });

  const { config, report } = session;
  const isDraft = config.kind === 'draft';
  const base = useConfig(isDraft ? config.base_config_id : null);
  // null: the server offers no schedules, so there is nothing to schedule with.
  const schedules = useConfigSchedules(config.id);
  const canSchedule = isDraft && canPublish && schedules.data != null;
  const baseLabel = base.data?.label ?? 'the config it came from';
  // Only for the report that save got: a newer version's issues name nothing.
  const saved = lastSave?.report === report ? lastSave.edit : null;
  const origins = useMemo(
    () =>
      saved
        ? issueOriginsOf(
            saved.operations,
            saved.appliedPaths,
            report.issues.map((issue) => issue.path),
          )
        : null,
    [saved, report],
  );

  function onEditorReady(handle: ConfigEditorHandle): void {
    editor.current = handle;
    handle.setServerIssues(session.report.issues);
    markEditorStep(EDITOR_MARKS.serverMarkers);
    primeSavedText(session.savedText);
    const saved = arrival.current;
    arrival.current = null;
    if (saved) {
      // The person saved from here a moment ago: carry on where they were.
      handle.restoreViewState(saved.viewState);
      handle.focus();
      highlightApplied(handle, session.savedText, saved.appliedRanges);
    }
    setReady(true);
  }

  function onSaved(handle: ConfigEditorHandle, outcome: SaveEditOutcome): void {
    if (outcome.status === 'unchanged') notify(NOTHING_TO_SAVE, 'info');
    if (outcome.status !== 'saved') return;
    const { output, record } = outcome;
    const edit: SavedEdit = {
      operations: outcome.operations,
      appliedPaths: output.result.applied_paths,
    };
    // Kept unless the service would not take the typed text (then it wrote the text itself).
    const textNote =
      outcome.textRefused === null
        ? ''
        : ` Your formatting could not be kept, so the service wrote the text: ${outcome.textRefused}`;
    if (output.result.created) {
      notify(
        `Saved as a new draft from ${config.label}.${textNote}`,
        textNote ? 'info' : 'success',
      );
      leaving.current = true;
      const saved = arrivalState({
        appliedRanges: output.result.applied_ranges,
        viewState: handle.saveViewState(),
        save: edit,
      });
      void navigate(`/configs/${encodeURIComponent(record.id)}`, { state: saved });
      return;
    }
    // The markers must sit on the text the person sees: take the server's text (the same
    // data, perhaps formatted differently) with the smallest edit, cursor kept.
    handle.replaceText(record.yaml);
    handle.markClean();
    handle.setServerIssues(record.validation.issues);
    dispatch({ type: 'saved', record });
    setLastSave({ edit, report: record.validation });
    summary.clear();
    // A merge brought in someone else's edit: the text shown is now theirs and this one.
    const mergeNote = outcome.merged ? ` ${mergedNoticeOf(outcome.merged)}` : '';
    notify(
      `Saved: revision ${record.revision}.${mergeNote}${textNote}`,
      textNote || mergeNote ? 'info' : 'success',
    );
    highlightApplied(handle, record.yaml, output.result.applied_ranges);
  }

  /** Saves the editor's text as an edit of `target`, whose saved text is `baseText`. */
  function saveFrom(target: SessionConfig, baseText: string): void {
    const handle = editor.current;
    if (!handle || save.isPending || !canWrite) return;
    save.mutate(
      { target, baseText, editedText: handle.getText(), summary: summary.check },
      {
        onSuccess: (outcome) => onSaved(handle, outcome),
        onError: (error) => {
          const fields = editConflictsOf(error);
          if (fields !== null) {
            dispatch({ type: 'conflict', conflict: { target, baseText, fields } });
          } else if (isStale(error)) {
            dispatch({ type: 'conflict', conflict: { target, baseText } });
          }
        },
      },
    );
  }
  const startSave = () => saveFrom(config, session.savedText);
  useSaveShortcut(startSave);

  const onPublished = (published: ConfigRecord) => {
    setPublishOpen(false);
    notify(PUBLISHED_NOTICE);
    leaving.current = true;
    void navigate(`/configs/${encodeURIComponent(published.id)}`);
  };

  const readOnly = save.isPending || !canWrite || session.conflict !== null;
  const changesBase: string | null | undefined = isDraft
    ? base.isPending
      ? null
      : base.data?.yaml
    : session.savedText;

  return (
    <div className="page config-page">
      <ConfigHeading config={config} baseLabel={baseLabel} canWrite={canWrite} />
      {review.status}
      <form
        className="editor-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          startSave();
        }}
      >
        <div className="editor-frame" aria-busy={!ready || undefined}>
          <ErrorBoundary
            fallback={({ reset: retry }) => <RegionError what="The editor" reset={retry} />}
          >
            <Suspense fallback={<Spinner label="Loading the editor…" />}>
              <ConfigEditor
                modelPath={modelPath}
                initialText={initial.yaml}
                readOnly={readOnly}
                dark={dark}
                schema={schema}
                onReady={onEditorReady}
                onDirtyChange={(dirty) => dispatch({ type: 'edited', dirty })}
                onChange={operations.edited}
                lenses={abTestSteps.lenses}
                onLens={abTestSteps.choose}
              />
            </Suspense>
          </ErrorBoundary>
        </div>
        <SaveBar
          configId={config.id}
          isDraft={isDraft}
          valid={report.valid}
          canWrite={canWrite}
          canPublish={canPublish}
          ready={ready}
          dirty={session.dirty}
          saving={save.isPending}
          summary={summary}
          alert={saveAlertOf(save)}
          operations={{
            shown: operations.shown,
            controls: operationsId,
            toggle: operations.toggle,
          }}
          changes={{
            shown: showChanges,
            controls: changesId,
            toggle: () => setShowChanges(!showChanges),
          }}
          reviewBlock={review.publishBlock}
          onPublish={() => setPublishOpen(true)}
          onSchedulePublish={canSchedule ? () => setScheduleOpen(true) : undefined}
        />
      </form>

      {operations.shown && (
        <OperationsPanel
          id={operationsId}
          result={operations.preview.result}
          identical={operations.preview.identical}
          failure={operations.preview.failure}
          lastSave={
            saved && origins
              ? {
                  operations: saved.operations,
                  issues: issuesByOperation(origins, saved.operations.length).map((indexes) =>
                    indexes.flatMap((index) => {
                      const issue = report.issues[index];
                      return issue ? [{ index, issue }] : [];
                    }),
                  ),
                }
              : null
          }
          onChooseIssue={(index) => editor.current?.revealIssue(index)}
        />
      )}
      {showChanges && ready && (
        <ChangesPanel
          id={changesId}
          baseText={changesBase}
          baseLabel={isDraft ? baseLabel : 'the saved text'}
          modelPath={modelPath}
          dark={dark}
        />
      )}
      <ProblemsPanel
        report={report}
        syntaxIssues={operations.syntaxIssues}
        origins={origins}
        onChoose={(index) => editor.current?.revealIssue(index)}
        onChooseSyntax={(issue) => editor.current?.selectIssue(issue)}
      />
      {review.panel}
      <ReleasePanel configId={config.id} />

      {isDraft && (
        <PublishDialog
          open={publishOpen}
          draft={{ id: config.id, label: config.label }}
          draftText={session.savedText}
          baseText={base.data?.yaml ?? null}
          unsaved={session.dirty}
          onClose={() => setPublishOpen(false)}
          onPublished={onPublished}
        />
      )}
      {canSchedule && (
        <ScheduleDialog
          open={scheduleOpen}
          draft={{ id: config.id, label: config.label }}
          onClose={() => setScheduleOpen(false)}
        />
      )}
      {session.conflict?.fields && (
        <MergeResolution
          conflict={session.conflict}
          fields={session.conflict.fields}
          editor={editor}
          dark={dark}
          dispatch={dispatch}
          onResolved={(newer) => {
            const { yaml, validation: _validation, ...target } = newer;
            saveFrom(target, yaml);
          }}
        />
      )}
      {session.conflict && !session.conflict.fields && (
        <ConflictResolution
          routeId={routeId}
          conflict={session.conflict}
          editor={editor}
          dispatch={dispatch}
        />
      )}
      {abTestSteps.dialog}
      <LeaveGuard when={session.dirty} bypass={leaving} />
    </div>
  );
}
