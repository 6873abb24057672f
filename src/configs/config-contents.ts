/**
 * A config's apps and A/B tests read leniently from its data, for views such as the
 * console's A/B test pages. Drafts may be invalid, so nothing here assumes the schema holds:
 * entries without a string id are left out (nothing can act on them), other fields that
 * have the wrong type read as absent, and the list index of each test is kept so that
 * validation issues (`/ab_tests/3/...`) can be matched to it.
 */
import type { SettingValue } from '../contract/config-document';
import { isPlainObject, type PlainObject } from './data';

export interface AppContents {
  readonly id: string;
  readonly name: string | null;
  /** Absent `enabled` means enabled. */
  readonly enabled: boolean;
  readonly settings: Readonly<Record<string, SettingValue>>;
}

export interface VariantContents {
  readonly id: string;
  readonly weight: number | null;
  readonly settings: Readonly<Record<string, SettingValue>>;
}

export interface AbTestContents {
  /** The test's index in `ab_tests`. */
  readonly index: number;
  readonly id: string;
  readonly app: string | null;
  readonly description: string | null;
  /** As written: one of AB_TEST_STATUSES in a valid config, anything in a broken draft. */
  readonly status: string | null;
  readonly variants: readonly VariantContents[];
  /** The metric ids of its goals (the first the primary one) and guardrails; strings only. */
  readonly metrics: readonly string[];
  readonly guardrails: readonly string[];
  readonly winner: string | null;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
}

export interface ConfigContents {
  readonly apps: readonly AppContents[];
  readonly abTests: readonly AbTestContents[];
}

function stringOr(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function settingsOf(value: unknown): Record<string, SettingValue> {
  if (!isPlainObject(value)) return {};
  const settings: Record<string, SettingValue> = {};
  for (const [key, setting] of Object.entries(value)) {
    if (typeof setting === 'string' || typeof setting === 'number' || typeof setting === 'boolean')
      settings[key] = setting;
  }
  return settings;
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string')
    : [];
}

function entriesWithId(list: unknown): { entry: PlainObject; index: number; id: string }[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: unknown, index) =>
    isPlainObject(entry) && typeof entry.id === 'string' ? [{ entry, index, id: entry.id }] : [],
  );
}

export function readConfigContents(data: unknown): ConfigContents {
  const root = isPlainObject(data) ? data : {};
  return {
    apps: entriesWithId(root.apps).map(({ entry, id }) => ({
      id,
      name: stringOr(entry.name),
      enabled: entry.enabled !== false,
      settings: settingsOf(entry.settings),
    })),
    abTests: entriesWithId(root.ab_tests).map(({ entry, index, id }) => ({
      index,
      id,
      app: stringOr(entry.app),
      description: stringOr(entry.description),
      status: stringOr(entry.status),
      variants: entriesWithId(entry.variants).map((variant) => ({
        id: variant.id,
        weight:
          typeof variant.entry.weight === 'number' && Number.isFinite(variant.entry.weight)
            ? variant.entry.weight
            : null,
        settings: settingsOf(variant.entry.settings),
      })),
      metrics: stringsOf(entry.metrics),
      guardrails: stringsOf(entry.guardrails),
      winner: stringOr(entry.winner),
      startedAt: stringOr(entry.started_at),
      endedAt: stringOr(entry.ended_at),
    })),
  };
}
