/**
 * `/configs/:id` and `/configs/live`: the config's YAML in Monaco, saved as operations to a
 * draft, with the server's issues as markers and in the Problems panel, the changes against
 * the base, publishing, and the 412 and unsaved-edits dialogs (docs/console.md).
 *
 * This module is the editor route's chunk (React.lazy in app/routes.tsx); Monaco itself loads
 * one step later, with the editor component.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { z } from '../../../contract/zod';
import type { EditorOperationsResult } from '../../../configs';
import { configJsonSchema } from '../../../configs/config-schema';
import { MAX_SUMMARY_LENGTH, type ConfigEditRequest } from '../../../contract/config-edit';
import type { ConfigRecord } from '../../../contract/configs';
import type { Operation } from '../../../contract/operations';
import type { ValidationReport } from '../../../contract/validation';
import { Button } from '../../components/button';
import { ErrorBoundary, RegionError } from '../../components/error-boundary';
import { TextField } from '../../components/form-fields';
import { Spinner } from '../../components/spinner';
import { ApiProblem, describeError, isNotOffered } from '../../lib/api-client';
import { useAuthStatus } from '../../lib/auth';
import { notify } from '../../lib/notices';
import { usePageTitle } from '../../lib/page-title';
import type { ConfigEditorHandle } from '../../editor/editor-types';
import { ConfigEditor } from '../../editor/lazy-monaco';
import { operationsClient, SupersededError } from '../../editor/operations-client';
import { useDarkScheme } from '../../editor/use-dark-scheme';
import { configsKeys } from '../../api/config-keys';
import { useEditConfig, type EditConfigOutput } from '../../api/edit-config';
import { configQueryOptions, LIVE, useConfig } from '../../api/get-config';
import { useConfigSchema } from './api/get-config-schema';
import { ChangesPanel } from './components/changes-panel';
import { ConflictDialog, type ConflictChoice } from './components/conflict-dialog';
import { LeaveGuard } from './components/leave-dialog';
import { NOTHING_TO_SAVE, OperationsPanel } from './components/operations-panel';
import { ProblemsPanel } from './components/problems-panel';
import { PublishDialog } from './components/publish-dialog';
import { offers } from '../../lib/permissions';

export const SYNTAX_ALERT = 'Fix the syntax errors before saving.';
export const PUBLISH_BLOCKED = 'Fix the errors before publishing.';
export const PUBLISHED_NOTICE = 'Published. This version is now live.';
/** How long the lines a save touched stay highlighted. */
export const HIGHLIGHT_MS = 2_000;
const OPERATIONS_REFRESH_MS = 400;

/** Has the worker parse the saved text before the first diff against it needs it. */
function primeSavedText(text: string): void {
  operationsClient()
    .run({ kind: 'prime', text })
    .catch(() => undefined);
}

/** The editor's text model, one per config page. */
export function modelPathOf(routeId: string): string {
  return `inmemory://config/${encodeURIComponent(routeId)}.yaml`;
}

/** What the page carries to the new draft's URL after a save that created it. */
interface SavedState {
  readonly appliedPaths: readonly string[];
  readonly operations: readonly Operation[];
  readonly viewState: unknown;
}

function savedStateOf(state: unknown): SavedState | null {
  if (typeof state !== 'object' || state === null || !('saved' in state)) return null;
  const saved = state.saved;
  if (typeof saved !== 'object' || saved === null) return null;
  if (!('appliedPaths' in saved) || !Array.isArray(saved.appliedPaths)) return null;
  if (!('operations' in saved) || !Array.isArray(saved.operations)) return null;
  return {
    appliedPaths: saved.appliedPaths.filter((path): path is string => typeof path === 'string'),
    operations: saved.operations as Operation[],
    viewState: 'viewState' in saved ? saved.viewState : undefined,
  };
}

/** The config the text was loaded from or last saved to. */
interface Session {
  readonly config: ConfigRecord;
  /** The saved text: what the edit is made on (its operations are against it). */
  readonly savedText: string;
  readonly report: ValidationReport;
}

function sessionOf(config: ConfigRecord): Session {
  return { config, savedText: config.yaml, report: config.validation };
}

const summarySchema = z.object({
  summary: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter a summary: say what the edit does.'),
      z.maxLength(MAX_SUMMARY_LENGTH, `Use at most ${MAX_SUMMARY_LENGTH} characters.`),
    ),
});
type SummaryInput = z.input<typeof summarySchema>;
type SummaryValues = z.output<typeof summarySchema>;

export function ConfigPage() {
  const { id = '' } = useParams();
  // A new config (e.g. the draft a save created) is a new page: state starts afresh.
  return <ConfigPageContent key={id} routeId={id} />;
}

function isNotFound(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 404;
}

function loadFailure(routeId: string, error: unknown): string {
  if (routeId === LIVE && isNotOffered(error)) {
    return 'This server does not offer the live config (GET /configs/live), so it cannot be edited here.';
  }
  if (isNotFound(error)) {
    return `There is no config ${routeId} in this account.`;
  }
  return `The config could not be loaded. ${describeError(error)}`;
}

function ConfigPageContent({ routeId }: { routeId: string }) {
  const queryClient = useQueryClient();
  const config = useConfig(routeId);
  const schema = useConfigSchema();
  const loaded = config.data;
  // The live config is also the config of its id (a draft made from it names that id).
  useEffect(() => {
    if (routeId === LIVE && loaded) {
      queryClient.setQueryData(configsKeys.detail(loaded.id), (cached) => cached ?? loaded);
    }
  }, [routeId, loaded, queryClient]);
  const fallbackTitle = routeId === LIVE ? 'Live config' : 'Config';
  usePageTitle(config.data?.label ?? fallbackTitle);

  // A failed background refetch keeps the editor (and the person's edits), unless the
  // config is gone.
  if (config.isError && (config.data === undefined || isNotFound(config.error))) {
    return (
      <div className="page">
        <h1>{fallbackTitle}</h1>
        <div role="alert" className="alert alert-error">
          <p>{loadFailure(routeId, config.error)}</p>
          <p>
            <Link to="/configs">Back to the configs</Link>
          </p>
        </div>
      </div>
    );
  }
  if (config.data === undefined || schema.isPending) {
    return (
      <div className="page" aria-busy="true">
        <h1>{config.data?.label ?? fallbackTitle}</h1>
        <Spinner label="Loading the config…" />
      </div>
    );
  }
  return (
    <ConfigEditorView
      routeId={routeId}
      initial={config.data}
      schema={schema.data ?? configJsonSchema}
    />
  );
}

interface ConflictState {
  readonly target: ConfigRecord;
  /** The saved text the refused edit was made on. */
  readonly baseText: string;
}

function ConfigEditorView({
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
  const queryClient = useQueryClient();
  const auth = useAuthStatus();
  const canWrite = offers(auth.data, 'config:write');
  const canPublish = offers(auth.data, 'config:publish');
  const dark = useDarkScheme();
  const editMutation = useEditConfig();
  const modelPath = modelPathOf(routeId);
  const operationsId = useId();
  const changesId = useId();
  const publishHintId = useId();

  const [session, setSession] = useState<Session>(() => sessionOf(initial));
  const sessionRef = useRef(session);
  const editor = useRef<ConfigEditorHandle | null>(null);
  const [ready, setReady] = useState(false);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const savingRef = useRef(false);
  const [saveAlert, setSaveAlert] = useState<string | null>(null);
  const [conflict, setConflict] = useState<ConflictState | null>(null);
  const [conflictPending, setConflictPending] = useState<ConflictChoice | null>(null);
  const [conflictFailure, setConflictFailure] = useState<string | null>(null);
  const [publishOpen, setPublishOpen] = useState(false);
  const [showOperations, setShowOperations] = useState(false);
  const [showChanges, setShowChanges] = useState(false);
  const [operations, setOperations] = useState<{
    result: EditorOperationsResult | null;
    identical: boolean;
  }>({ result: null, identical: true });
  const operationsSeq = useRef(0);
  const operationsTimer = useRef<number | undefined>(undefined);
  const showOperationsRef = useRef(showOperations);
  // Set while the page itself moves on (a save made a new draft, a publish): no prompt.
  const leaving = useRef(false);
  // What a save that created this draft left for it: applied paths to highlight, the view.
  const arrival = useRef<SavedState | null>(savedStateOf(location.state));

  useEffect(() => {
    showOperationsRef.current = showOperations;
  });

  /** The session changes in event handlers; what runs next in them must see it at once. */
  const changeSession = (next: Session) => {
    sessionRef.current = next;
    setSession(next);
  };

  const config = session.config;
  const isDraft = config.kind === 'draft';
  const base = useConfig(isDraft ? config.base_config_id : null);
  const baseLabel = base.data?.label ?? 'the config it came from';

  const {
    register,
    trigger,
    getValues,
    setFocus,
    reset,
    formState: { errors },
  } = useForm<SummaryInput, unknown, SummaryValues>({
    resolver: zodResolver(summarySchema),
    defaultValues: { summary: '' },
  });

  const highlightApplied = useCallback(
    (
      handle: ConfigEditorHandle,
      text: string,
      paths: readonly string[],
      applied: readonly Operation[],
    ) => {
      if (paths.length === 0) return;
      operationsClient()
        .run({ kind: 'locate', text, paths, operations: applied })
        .then((ranges) => {
          if (editor.current === handle && handle.getText() === text) {
            handle.highlight(ranges, HIGHLIGHT_MS);
          }
        })
        .catch(() => undefined);
    },
    [],
  );

  // The edit as operations, worked out in the worker when typing pauses, so that Save
  // usually finds them ready (and Show operations stays current).
  const latestDiff = useRef<{
    readonly baseText: string;
    readonly editedText: string;
    readonly result: Promise<EditorOperationsResult>;
  } | null>(null);
  const diffOf = useCallback(
    (baseText: string, editedText: string): Promise<EditorOperationsResult> => {
      const latest = latestDiff.current;
      if (latest && latest.baseText === baseText && latest.editedText === editedText) {
        return latest.result;
      }
      const result = operationsClient().runLatest('diff', { kind: 'diff', baseText, editedText });
      const entry = { baseText, editedText, result };
      latestDiff.current = entry;
      result.catch(() => {
        if (latestDiff.current === entry) latestDiff.current = null;
      });
      return result;
    },
    [],
  );

  const refreshOperations = useCallback(() => {
    const handle = editor.current;
    if (!handle) return;
    const seq = ++operationsSeq.current;
    const text = handle.getText();
    const savedText = sessionRef.current.savedText;
    diffOf(savedText, text)
      .then((result) => {
        if (seq === operationsSeq.current) {
          setOperations({ result, identical: text === savedText });
        }
      })
      .catch((error: unknown) => {
        if (error instanceof SupersededError) return;
        if (seq === operationsSeq.current) {
          setSaveAlert(`The operations could not be worked out. ${describeError(error)}`);
        }
      });
  }, [diffOf]);

  const onEditorReady = useCallback(
    (handle: ConfigEditorHandle) => {
      editor.current = handle;
      handle.setServerIssues(sessionRef.current.report.issues);
      primeSavedText(sessionRef.current.savedText);
      const saved = arrival.current;
      arrival.current = null;
      if (saved) {
        // The person saved from here a moment ago: carry on where they were.
        handle.restoreViewState(saved.viewState);
        handle.focus();
        highlightApplied(
          handle,
          sessionRef.current.savedText,
          saved.appliedPaths,
          saved.operations,
        );
      }
      setReady(true);
    },
    [highlightApplied],
  );

  const onEditorChange = useCallback(() => {
    window.clearTimeout(operationsTimer.current);
    operationsTimer.current = window.setTimeout(() => {
      if (showOperationsRef.current) {
        refreshOperations();
        return;
      }
      const handle = editor.current;
      if (handle) diffOf(sessionRef.current.savedText, handle.getText()).catch(() => undefined);
    }, OPERATIONS_REFRESH_MS);
  }, [refreshOperations, diffOf]);

  useEffect(() => () => window.clearTimeout(operationsTimer.current), []);

  function applySaved(
    handle: ConfigEditorHandle,
    target: ConfigRecord,
    request: ConfigEditRequest,
    editedText: string,
    { result, revision: answered }: EditConfigOutput,
  ): void {
    const now = new Date().toISOString();
    const savedText = result.validation.yaml ?? editedText;
    if (result.created) {
      const revision = answered ?? 1;
      // The new draft's page shows at once from this; it refetches the rest when it opens.
      const created: ConfigRecord = {
        id: result.id,
        kind: result.kind,
        label: request.summary?.trim() ?? '',
        revision,
        live: false,
        base_config_id: result.base_config_id,
        created_at: now,
        updated_at: now,
        yaml: savedText,
        validation: result.validation,
      };
      queryClient.setQueryData(configsKeys.detail(result.id), created);
      void queryClient.invalidateQueries({
        queryKey: configsKeys.detail(result.id),
        refetchType: 'none',
      });
      notify(`Saved as a new draft from ${target.label}.`);
      leaving.current = true;
      const saved: SavedState = {
        appliedPaths: result.applied_paths,
        operations: request.operations,
        viewState: handle.saveViewState(),
      };
      void navigate(`/configs/${encodeURIComponent(result.id)}`, { state: { saved } });
      return;
    }
    const revision = answered ?? target.revision + 1;
    // The markers must sit on the text the person sees: take the server's text (the same
    // data, perhaps formatted differently) with the smallest edit, cursor kept.
    handle.replaceText(savedText);
    handle.markClean();
    handle.setServerIssues(result.validation.issues);
    const updated: ConfigRecord = {
      ...target,
      revision,
      updated_at: now,
      yaml: savedText,
      validation: result.validation,
    };
    changeSession({ config: updated, savedText, report: result.validation });
    queryClient.setQueryData(configsKeys.detail(updated.id), updated);
    reset({ summary: '' });
    notify(`Saved: revision ${revision}.`);
    highlightApplied(handle, savedText, result.applied_paths, request.operations);
    if (showOperationsRef.current) refreshOperations();
  }

  async function save(): Promise<void> {
    const handle = editor.current;
    if (!handle || savingRef.current || !canWrite) return;
    savingRef.current = true;
    setSaving(true);
    setSaveAlert(null);
    const target = sessionRef.current.config;
    const baseText = sessionRef.current.savedText;
    const editedText = handle.getText();
    try {
      const edit = await diffOf(baseText, editedText);
      if (edit.status === 'syntax_error') {
        setSaveAlert(SYNTAX_ALERT);
        return;
      }
      if (edit.status === 'unchanged') {
        notify(NOTHING_TO_SAVE, 'info');
        return;
      }
      if (!(await trigger('summary'))) {
        setFocus('summary');
        return;
      }
      const request: ConfigEditRequest = {
        operations: edit.operations,
        summary: getValues('summary').trim(),
        // The live config's page lets the server pick the live config (and copy it).
        ...(routeId === LIVE ? {} : { config_id: target.id }),
      };
      let output: EditConfigOutput;
      try {
        output = await editMutation.mutateAsync({
          request,
          revision: target.revision,
          ...(routeId === LIVE ? { id: target.id } : {}),
        });
      } catch (error) {
        if (error instanceof ApiProblem && error.status === 412) {
          setConflictFailure(null);
          setConflict({ target, baseText });
        } else {
          setSaveAlert(`The edit was not saved. ${describeError(error)}`);
        }
        return;
      }
      applySaved(handle, target, request, editedText, output);
    } catch (error) {
      setSaveAlert(`The edit was not saved. ${describeError(error)}`);
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  }

  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });

  // Ctrl/Cmd+S saves from anywhere on the page (the browser would save the HTML).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 's') {
        return;
      }
      event.preventDefault();
      if (document.querySelector('dialog[open]')) return;
      void saveRef.current();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);

  async function loadNewer(target: ConfigRecord): Promise<ConfigRecord> {
    return queryClient.fetchQuery({
      ...configQueryOptions(routeId === LIVE ? LIVE : target.id),
      staleTime: 0,
    });
  }

  function showNewer(handle: ConfigEditorHandle, newer: ConfigRecord): void {
    primeSavedText(newer.yaml);
    handle.replaceText(newer.yaml);
    handle.markClean();
    handle.setServerIssues(newer.validation.issues);
    changeSession(sessionOf(newer));
  }

  async function reloadNewer(): Promise<void> {
    const handle = editor.current;
    if (!conflict || !handle) return;
    setConflictPending('reload');
    setConflictFailure(null);
    try {
      const newer = await loadNewer(conflict.target);
      showNewer(handle, newer);
      setConflict(null);
      notify(`Loaded the newer version: revision ${newer.revision}.`, 'info');
      if (showOperationsRef.current) refreshOperations();
    } catch (error) {
      setConflictFailure(`The newer version could not be loaded. ${describeError(error)}`);
    } finally {
      setConflictPending(null);
    }
  }

  async function reapplyEdit(): Promise<void> {
    const handle = editor.current;
    if (!conflict || !handle) return;
    setConflictPending('reapply');
    setConflictFailure(null);
    try {
      const newer = await loadNewer(conflict.target);
      const editedText = handle.getText();
      const outcome = await operationsClient().run({
        kind: 'reapply',
        oldBaseText: conflict.baseText,
        editedText,
        newBaseText: newer.yaml,
      });
      if (outcome.status === 'refused') {
        setConflictFailure(`Your edit does not apply to the newer version: ${outcome.message}`);
        return;
      }
      if (outcome.status === 'syntax_error') {
        setConflictFailure('Your text does not parse, so it cannot be re-applied.');
        return;
      }
      // The newer text first, with its markers; then the edit on top, which carries the
      // markers along to where they belong.
      showNewer(handle, newer);
      if (outcome.status === 'applied') handle.replaceText(outcome.text);
      setConflict(null);
      notify(
        `Your edit is now on top of revision ${newer.revision}. Review it and save again.`,
        'info',
      );
      handle.focus();
      if (showOperationsRef.current) refreshOperations();
    } catch (error) {
      setConflictFailure(`Your edit could not be re-applied. ${describeError(error)}`);
    } finally {
      setConflictPending(null);
    }
  }

  const toggleOperations = () => {
    const next = !showOperations;
    setShowOperations(next);
    if (next) {
      setOperations({ result: null, identical: true });
      refreshOperations();
    }
  };

  const onPublished = (published: ConfigRecord) => {
    setPublishOpen(false);
    notify(PUBLISHED_NOTICE);
    leaving.current = true;
    void navigate(`/configs/${encodeURIComponent(published.id)}`);
  };

  const valid = session.report.valid;
  const readOnly = saving || !canWrite || conflict !== null;
  const changesBase: string | null | undefined = isDraft
    ? base.isPending
      ? null
      : base.data?.yaml
    : session.savedText;

  return (
    <div className="page config-page">
      <h1>{config.label}</h1>
      <p className="config-meta">
        <span>{isDraft ? 'Draft' : 'Published'}</span>
        {config.live && <span className="config-live"> · live</span>}
        <span>{` · revision ${config.revision}`}</span>
        {isDraft && config.base_config_id !== null && (
          <span>
            {' · from '}
            <Link to={`/configs/${encodeURIComponent(config.base_config_id)}`}>{baseLabel}</Link>
          </span>
        )}
      </p>
      {!isDraft && canWrite && (
        <p className="muted">Saving an edit makes a new draft from this config.</p>
      )}
      {!canWrite && (
        <p className="alert alert-warning">
          Your API key can read configs but not change them: the editor is read-only.
        </p>
      )}

      <form
        className="editor-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
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
                onDirtyChange={setDirty}
                onChange={onEditorChange}
              />
            </Suspense>
          </ErrorBoundary>
        </div>
        {canWrite && (
          <TextField
            label="Summary"
            hint="Required to save: say what the edit does."
            autoComplete="off"
            maxLength={MAX_SUMMARY_LENGTH}
            error={errors.summary?.message}
            {...register('summary')}
          />
        )}
        {saveAlert && (
          <p role="alert" className="alert alert-error">
            {saveAlert}
          </p>
        )}
        <div className="form-actions">
          {canWrite && (
            <Button type="submit" variant="primary" pending={saving} disabled={!ready}>
              Save draft
            </Button>
          )}
          <Button
            aria-expanded={showOperations}
            aria-controls={showOperations ? operationsId : undefined}
            disabled={!ready}
            onClick={toggleOperations}
          >
            Show operations
          </Button>
          <Button
            aria-expanded={showChanges}
            aria-controls={showChanges ? changesId : undefined}
            disabled={!ready}
            onClick={() => setShowChanges(!showChanges)}
          >
            Show changes
          </Button>
          {isDraft && canPublish && (
            <Button
              disabled={!valid}
              aria-describedby={valid ? undefined : publishHintId}
              onClick={() => setPublishOpen(true)}
            >
              Publish
            </Button>
          )}
          <Link
            className="button button-secondary"
            to={`/configs/${encodeURIComponent(config.id)}/history`}
          >
            History
          </Link>
          {isDraft && canWrite && (
            <Link
              className="button button-secondary"
              to={`/ab-tests/new?config=${encodeURIComponent(config.id)}`}
            >
              New A/B test in this draft
            </Link>
          )}
        </div>
        {isDraft && !valid && (
          <p id={publishHintId} className="warning-text">
            {PUBLISH_BLOCKED}
          </p>
        )}
      </form>

      {showOperations && (
        <OperationsPanel
          id={operationsId}
          result={operations.result}
          identical={operations.identical}
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
        report={session.report}
        onChoose={(index) => editor.current?.revealIssue(index)}
      />

      {isDraft && (
        <PublishDialog
          open={publishOpen}
          draft={{ id: config.id, label: config.label }}
          draftText={session.savedText}
          baseText={base.data?.yaml ?? null}
          unsaved={dirty}
          onClose={() => setPublishOpen(false)}
          onPublished={onPublished}
        />
      )}
      <ConflictDialog
        open={conflict !== null}
        pending={conflictPending}
        failure={conflictFailure}
        onReload={() => void reloadNewer()}
        onReapply={() => void reapplyEdit()}
        onCancel={() => setConflict(null)}
      />
      <LeaveGuard when={dirty} bypass={leaving} />
    </div>
  );
}
