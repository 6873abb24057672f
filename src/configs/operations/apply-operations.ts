/**
 * Applies edit operations to a parsed config document, in place, so comments and formatting
 * of untouched parts survive. Items apply in order, operations in order; the
 * first refusal stops everything and the caller keeps its unchanged copy (all or nothing).
 */
import type { Document } from 'yaml';
import { MAX_NESTING_DEPTH, MAX_POINTER_LENGTH, nestsDeeperThan } from '../../contract/limits';
import {
  actionKeyOf,
  itemsOf,
  JSON_POINTER_PATTERN,
  type ActionKey,
  type Operation,
} from '../../contract/operations';
import { toPointer } from '../json-pointer';
import {
  createAbTest,
  deleteAbTest,
  endAbTest,
  promoteAbTest,
  startAbTest,
  updateAbTest,
} from './ab-test-actions';
import { createApp, deleteApp, updateApp } from './app-actions';
import { ApplyContext } from './apply-context';
import type { EditChanges } from './edit-changes';
import { applySet, applyUnset } from './pointer-actions';
import { RefusalError, refuse, type OperationRefusal } from './refusal';

export type ApplyResult =
  | { readonly ok: true; readonly appliedPaths: string[] }
  | { readonly ok: false; readonly refusal: OperationRefusal };

export interface ApplyOptions {
  /** The clock for started_at / ended_at; injected so results are reproducible. */
  readonly now?: Date;
  /** Filled with what changed, by node, for the incremental write and parse. */
  readonly changes?: EditChanges;
}

type Item = Readonly<Record<string, unknown>>;

const HANDLERS: Record<ActionKey, (context: ApplyContext, item: Item) => void> = {
  create_app: createApp,
  update_app: updateApp,
  delete_app: deleteApp,
  set: (context, item) => {
    if (!('value' in item)) throw refuse.badItem('set needs a "value"');
    applySet(context, pointerOf(item), item.value);
  },
  unset: (context, item) => applyUnset(context, pointerOf(item)),
  create_ab_test: createAbTest,
  update_ab_test: updateAbTest,
  start_ab_test: startAbTest,
  end_ab_test: endAbTest,
  promote_ab_test: promoteAbTest,
  delete_ab_test: deleteAbTest,
  // The text is the edit's, taken after every operation has applied (edit.ts).
  edit_text: () => undefined,
};

/**
 * Mutates `document`. On a refusal the document is left part-way: apply to a clone
 * (`document.clone()`) when the original must survive a refusal.
 */
export function applyOperations(
  document: Document,
  operations: readonly Operation[],
  options: ApplyOptions = {},
): ApplyResult {
  const [first] = operations;
  if (first && document.errors.length > 0) return unreadable(document, actionKeyOf(first));
  const context = new ApplyContext(document, options.now ?? new Date(), options.changes);
  for (const [operationIndex, operation] of operations.entries()) {
    const action = actionKeyOf(operation);
    const handler = HANDLERS[action];
    for (const [itemIndex, item] of itemsOf(operation).entries()) {
      try {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) {
          throw refuse.badItem('the item is not an object');
        }
        checkValueNesting(item);
        handler(context, item);
        context.checkNesting();
      } catch (error) {
        if (!(error instanceof RefusalError)) throw error;
        const requestPath = toPointer([
          'operations',
          operationIndex,
          action,
          itemIndex,
          ...(error.field === undefined ? [] : [error.field]),
        ]);
        return {
          ok: false,
          refusal: {
            kind: error.kind,
            code: error.code,
            message: `${requestPath}: ${error.message}`,
            operationIndex,
            itemIndex,
            action,
            requestPath,
          },
        };
      }
    }
  }
  return { ok: true, appliedPaths: context.appliedPaths() };
}

/**
 * A document the parser could not build (syntax errors, or nesting past the limit) cannot
 * be written back: editing it would lose what could not be read.
 */
function unreadable(document: Document, action: ActionKey): ApplyResult {
  const reason = document.errors[0]?.message.split('\n')[0] ?? '';
  const message = `The config cannot be read (${reason}), so operations cannot change it: discard the draft, or make another published config live`;
  return {
    ok: false,
    refusal: {
      kind: 'not_allowed_in_state',
      code: 'config.unreadable',
      message,
      operationIndex: 0,
      itemIndex: 0,
      action,
      requestPath: '/operations',
    },
  };
}

/** The contract refuses such items first; checked again before any value becomes nodes. */
function checkValueNesting(item: Item): void {
  for (const [field, value] of Object.entries(item)) {
    if (nestsDeeperThan(value, MAX_NESTING_DEPTH)) {
      throw refuse.tooDeep(
        `${field} nests deeper than ${MAX_NESTING_DEPTH} levels, the limit for a value`,
        field,
      );
    }
  }
}

const JSON_POINTER = new RegExp(JSON_POINTER_PATTERN);

function pointerOf(item: Item): string {
  const path = item.path;
  if (typeof path === 'string' && path.length > MAX_POINTER_LENGTH) {
    throw refuse.badItem(
      `path is over ${MAX_POINTER_LENGTH} characters, the limit for a JSON Pointer`,
      'path',
    );
  }
  // RFC 6901: a "~" not followed by 0 or 1 (e.g. /a~2b) makes the pointer invalid.
  if (typeof path !== 'string' || !JSON_POINTER.test(path)) {
    throw refuse.badItem('the item needs a JSON Pointer "path" such as /apps/0/name');
  }
  return path;
}
