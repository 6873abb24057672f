/**
 * Messages between the page and the operations worker (operations.worker.ts). Everything
 * that parses a config's YAML runs there (the editor's diffs, and the A/B test pages' reading
 * of a config): the `yaml` parser takes about 2 s on a
 * 10,000-app config, which must never stall typing.
 */
import type { Operation } from '../../contract/operations';
import type { ConfigContents, EditorOperationsResult } from '../../configs';
import type { LiveConfigStamp } from '../../configs/delivery-view';
import type { DeliveryView } from '../../contract/delivery';

export type OperationsRequest =
  | {
      /** The edit as operations: `editorTextToOperations(baseText, editedText)`. */
      readonly kind: 'diff';
      readonly baseText: string;
      readonly editedText: string;
    }
  | {
      /**
       * After a 412: the person's edit (from the text they started from to their text),
       * applied onto the newer text of the config.
       */
      readonly kind: 'reapply';
      readonly oldBaseText: string;
      readonly editedText: string;
      readonly newBaseText: string;
    }
  | {
      /**
       * After a 409 edit_conflict: the person's edit applied onto the newer text, then each
       * field both changed set to the value the person chose for it.
       */
      readonly kind: 'resolve';
      readonly oldBaseText: string;
      readonly editedText: string;
      readonly newBaseText: string;
      readonly fields: readonly ChosenField[];
    }
  | {
      /** The saved text the next diffs are against: parse it now, while the person reads. */
      readonly kind: 'prime';
      readonly text: string;
    }
  | {
      /** A config's apps and A/B tests, for pages that show them (null: it does not parse). */
      readonly kind: 'contents';
      readonly text: string;
    }
  | {
      /**
       * One app's view as the delivery endpoints send it, from the live config's text
       * (null: no such app, or the text does not parse).
       */
      readonly kind: 'delivery-view';
      readonly text: string;
      readonly appId: string;
      readonly config: LiveConfigStamp;
    };

/** A conflicting field and the value chosen for it. */
export interface ChosenField {
  /** Where the conflict named it: in the newer text, else in the text the edit was made on. */
  readonly path: string;
  /** Absent: the field is removed. */
  readonly value?: unknown;
  /** The newer edit's value was chosen: the person's change there may be dropped. */
  readonly theirs: boolean;
}

export type ReapplyResult =
  | Extract<EditorOperationsResult, { status: 'syntax_error' }>
  /** The edit changed nothing but comments or formatting: there is nothing to re-apply. */
  | { readonly status: 'unchanged' }
  /** The newer text does not take the edit (an app it updates was deleted, ...). */
  | { readonly status: 'refused'; readonly message: string }
  | { readonly status: 'applied'; readonly text: string; readonly operations: Operation[] };

export interface OperationsResults {
  readonly diff: EditorOperationsResult;
  readonly reapply: ReapplyResult;
  readonly resolve: ReapplyResult;
  readonly prime: null;
  readonly contents: ConfigContents | null;
  readonly 'delivery-view': DeliveryView | null;
}

export type ResultOf<R extends OperationsRequest> = OperationsResults[R['kind']];

export interface OperationsEnvelope {
  readonly id: number;
  readonly request: OperationsRequest;
}

export type OperationsReply =
  | {
      readonly id: number;
      readonly ok: true;
      readonly result: OperationsResults[keyof OperationsResults];
    }
  | { readonly id: number; readonly ok: false; readonly message: string };
