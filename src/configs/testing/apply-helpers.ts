/**
 * Helpers for the operations tests: apply operations to YAML text the way the service will
 * (parse, apply in place, write back with stringifyConfig) and look at the outcome.
 */
import { expect } from 'vitest';
import type { Operation } from '../../contract/operations';
import { applyOperations, type ApplyResult } from '../operations/apply-operations';
import type { OperationRefusal } from '../operations/refusal';
import { parseConfig, stringifyConfig } from '../parse';

export const NOW = new Date('2026-11-22T10:00:00.000Z');

export interface Applied<Data> {
  readonly result: ApplyResult;
  /** The document's text after applying. */
  readonly text: string;
  readonly data: Data;
}

function apply<Data = unknown>(
  source: string,
  operations: readonly unknown[],
  now = NOW,
): Applied<Data> {
  const { document } = parseConfig(source);
  const result = applyOperations(document, operations as Operation[], { now });
  return { result, text: stringifyConfig(document), data: document.toJS() as Data };
}

/** Applies operations that must succeed; returns the text, data and applied paths. */
export function applied<Data = unknown>(source: string, operations: readonly unknown[], now = NOW) {
  const outcome = apply<Data>(source, operations, now);
  if (!outcome.result.ok) {
    throw new Error(`unexpected refusal: ${JSON.stringify(outcome.result.refusal)}`);
  }
  return { ...outcome, paths: outcome.result.appliedPaths };
}

/**
 * Applies operations that must be refused, to a clone: the refusal, and a check that the
 * original document's text did not change (all or nothing at the domain level).
 */
export function refused(source: string, operations: readonly unknown[]): OperationRefusal {
  const { document } = parseConfig(source);
  const before = stringifyConfig(document);
  const result = applyOperations(document.clone(), operations as Operation[], { now: NOW });
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  expect(stringifyConfig(document)).toBe(before);
  return result.refusal;
}
