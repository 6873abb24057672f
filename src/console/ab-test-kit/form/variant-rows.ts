/**
 * Variants as a form holds them (strings, as typed) and as the contract sends them. The
 * rules mirror the config's (docs/config.md, Shape and Validation), so that a person sees a mistake beside its
 * field before anything is posted; the server still judges what arrives.
 */
import { z } from '../../../contract/zod';
import type { VariantContents } from '../../../configs';
import {
  ID_PATTERN,
  MAX_VARIANTS,
  MIN_VARIANTS,
  SETTING_KEY_PATTERN,
  WEIGHTS_TOTAL,
  type SettingValue,
  type Variant,
} from '../../../contract/config-document';

export const SETTING_TYPES = ['text', 'number', 'boolean'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

export interface SettingRow {
  key: string;
  type: SettingType;
  value: string;
}

export interface VariantRow {
  id: string;
  weight: string;
  settings: SettingRow[];
}

export const ID_HINT = 'Lowercase letters, digits and -, starting with a letter.';
const idPattern = new RegExp(ID_PATTERN);
const settingKeyPattern = new RegExp(SETTING_KEY_PATTERN);

/** The weight a row holds as a number; empty or not a whole number: null. */
export function weightOf(row: Pick<VariantRow, 'weight'>): number | null {
  const text = row.weight.trim();
  return /^\d+$/.test(text) ? Number(text) : null;
}

export function weightsTotal(rows: readonly Pick<VariantRow, 'weight'>[]): number {
  return rows.reduce((sum, row) => sum + (weightOf(row) ?? 0), 0);
}

export function settingTypeOf(value: SettingValue): SettingType {
  return typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'text';
}

export function settingValueOf(row: SettingRow): SettingValue {
  if (row.type === 'number') return Number(row.value.trim());
  if (row.type === 'boolean') return row.value.trim() === 'true';
  return row.value;
}

const settingRowSchema = z
  .object({
    key: z
      .string()
      .check(z.trim(), z.regex(settingKeyPattern, 'Use a-z, 0-9 and _, starting with a letter.')),
    type: z.enum(SETTING_TYPES),
    value: z.string(),
  })
  .check(
    z.superRefine((row, ctx) => {
      const text = row.value.trim();
      if (row.type === 'number' && (text === '' || !Number.isFinite(Number(text)))) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: 'Enter a number.' });
      }
      if (row.type === 'boolean' && text !== 'true' && text !== 'false') {
        ctx.addIssue({ code: 'custom', path: ['value'], message: 'Enter true or false.' });
      }
    }),
  );

const variantRowSchema = z
  .object({
    id: z.string().check(z.trim(), z.regex(idPattern, ID_HINT)),
    weight: z.string(),
    settings: z.array(settingRowSchema),
  })
  .check(
    z.superRefine((row, ctx) => {
      const weight = weightOf(row);
      if (weight === null || weight > WEIGHTS_TOTAL) {
        ctx.addIssue({
          code: 'custom',
          path: ['weight'],
          message: `Enter a whole number from 0 to ${WEIGHTS_TOTAL}.`,
        });
      }
      const seen = new Set<string>();
      row.settings.forEach((setting, index) => {
        const key = setting.key.trim();
        if (seen.has(key)) {
          ctx.addIssue({
            code: 'custom',
            path: ['settings', index, 'key'],
            message: 'This variant already sets this key.',
          });
        }
        seen.add(key);
      });
    }),
  );

/** 2–10 variants with distinct ids whose weights add up to 100. */
export const variantRowsSchema = z.array(variantRowSchema).check(
  z.minLength(MIN_VARIANTS, `A test needs at least ${MIN_VARIANTS} variants.`),
  z.maxLength(MAX_VARIANTS, `A test has at most ${MAX_VARIANTS} variants.`),
  z.superRefine((rows, ctx) => {
    const seen = new Set<string>();
    rows.forEach((row, index) => {
      const id = row.id.trim();
      if (seen.has(id)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: 'Another variant has this id.',
        });
      }
      seen.add(id);
    });
    const total = weightsTotal(rows);
    if (total !== WEIGHTS_TOTAL) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `The weights add up to ${total}; they must add up to ${WEIGHTS_TOTAL}.`,
      });
    }
  }),
);

/** The contract's variants from valid rows. */
export function variantsOfRows(rows: readonly VariantRow[]): Variant[] {
  return rows.map((row) => {
    const variant: Variant = { id: row.id.trim(), weight: weightOf(row) ?? 0 };
    if (row.settings.length > 0) {
      variant.settings = Object.fromEntries(
        row.settings.map((setting) => [setting.key.trim(), settingValueOf(setting)]),
      );
    }
    return variant;
  });
}

/** Rows for a test's variants as the config holds them (the update form's start). */
export function rowsOfVariants(variants: readonly VariantContents[]): VariantRow[] {
  return variants.map((variant) => ({
    id: variant.id,
    weight: variant.weight === null ? '' : String(variant.weight),
    settings: Object.entries(variant.settings).map(([key, value]) => ({
      key,
      type: settingTypeOf(value),
      value: String(value),
    })),
  }));
}

/** What a new test starts with: a control and one treatment, half each. */
export function defaultVariantRows(): VariantRow[] {
  return [
    { id: 'control', weight: '50', settings: [] },
    { id: 'treatment', weight: '50', settings: [] },
  ];
}

/** Weights spread as evenly as whole numbers allow; the first rows take the remainder. */
export function evenWeights(count: number): string[] {
  const base = Math.floor(WEIGHTS_TOTAL / count);
  const remainder = WEIGHTS_TOTAL - base * count;
  return Array.from({ length: count }, (_, index) => String(base + (index < remainder ? 1 : 0)));
}
