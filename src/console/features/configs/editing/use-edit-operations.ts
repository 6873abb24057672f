/**
 * The edit as operations, worked out in the worker when typing pauses, so that Save usually
 * finds them ready and the Operations panel stays current while it is shown.
 */
import { useCallback, useEffect, useRef, useState, type Dispatch } from 'react';
import type { EditorOperationsResult } from '../../../../configs';
import type { ConfigRecord } from '../../../../contract/configs';
import type { ValidationIssue } from '../../../../contract/validation';
import { describeError } from '../../../lib/api-client';
import type { ConfigEditorHandle } from '../../../editor/editor-types';
import { operationsClient, SupersededError } from '../../../editor/operations-client';
import type { EditSessionEvent } from './edit-session';

const OPERATIONS_REFRESH_MS = 400;

export interface OperationsPreview {
  /** null while they are being worked out. */
  readonly result: EditorOperationsResult | null;
  /** The text is the saved text, to the character. */
  readonly identical: boolean;
  /** Why they could not be worked out, in words. */
  readonly failure: string | null;
}

/** Has the worker parse a saved text before the first diff against it needs it. */
export function primeSavedText(text: string): void {
  operationsClient()
    .run({ kind: 'prime', text })
    .catch(() => undefined);
}

/**
 * Shows the newer version the server holds, clean and with its markers: where both ways out
 * of a conflict start, before the person's edit goes back on top (carrying markers along).
 */
export function showNewerVersion(
  handle: ConfigEditorHandle,
  newer: ConfigRecord,
  dispatch: Dispatch<EditSessionEvent>,
): void {
  primeSavedText(newer.yaml);
  handle.replaceText(newer.yaml);
  handle.markClean();
  handle.setServerIssues(newer.validation.issues);
  dispatch({ type: 'newer-loaded', record: newer });
}

const WORKING: OperationsPreview = { result: null, identical: true, failure: null };
const NO_ISSUES: readonly ValidationIssue[] = [];

export function useEditOperations(
  editorRef: { readonly current: ConfigEditorHandle | null },
  savedText: string,
) {
  const [shown, setShown] = useState(false);
  const [preview, setPreview] = useState<OperationsPreview>(WORKING);
  // The syntax errors of the text as the last diff found them; none once it parses.
  const [syntaxIssues, setSyntaxIssues] = useState<readonly ValidationIssue[]>(NO_ISSUES);
  const latest = useRef({ savedText, shown });
  const latestDiff = useRef<{
    readonly baseText: string;
    readonly editedText: string;
    readonly result: Promise<EditorOperationsResult>;
  } | null>(null);
  const sequence = useRef(0);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    latest.current = { savedText, shown };
  });

  /** The edit from `baseText` to `editedText`; the same texts again share one answer. */
  const diff = useCallback(
    (baseText: string, editedText: string): Promise<EditorOperationsResult> => {
      const cached = latestDiff.current;
      if (cached && cached.baseText === baseText && cached.editedText === editedText) {
        return cached.result;
      }
      const result = operationsClient().runLatest('diff', { kind: 'diff', baseText, editedText });
      const entry = { baseText, editedText, result };
      latestDiff.current = entry;
      result.then(
        (outcome) => {
          if (latestDiff.current !== entry) return;
          setSyntaxIssues(outcome.status === 'syntax_error' ? outcome.issues : NO_ISSUES);
        },
        () => {
          if (latestDiff.current === entry) latestDiff.current = null;
        },
      );
      return result;
    },
    [],
  );

  const refresh = useCallback(() => {
    const handle = editorRef.current;
    if (!handle) return;
    const seq = ++sequence.current;
    const text = handle.getText();
    const base = latest.current.savedText;
    diff(base, text)
      .then((result) => {
        if (seq === sequence.current) {
          setPreview({ result, identical: text === base, failure: null });
        }
      })
      .catch((error: unknown) => {
        if (error instanceof SupersededError || seq !== sequence.current) return;
        setPreview({
          result: null,
          identical: false,
          failure: `The operations could not be worked out. ${describeError(error)}`,
        });
      });
  }, [editorRef, diff]);

  // Shown, and again whenever the saved text changes (a save, a newer version).
  useEffect(() => {
    if (shown) refresh();
  }, [shown, savedText, refresh]);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  /** The text changed: work the edit out once typing pauses. */
  const edited = useCallback(() => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      if (latest.current.shown) {
        refresh();
        return;
      }
      const handle = editorRef.current;
      if (handle) diff(latest.current.savedText, handle.getText()).catch(() => undefined);
    }, OPERATIONS_REFRESH_MS);
  }, [editorRef, diff, refresh]);

  const toggle = useCallback(() => {
    setShown((was) => !was);
    setPreview(WORKING);
  }, []);

  return { shown, preview, syntaxIssues, toggle, diff, edited };
}
