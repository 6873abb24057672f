/**
 * Which variant of a running A/B test a unit (a user, a device) gets, and the settings it
 * sees (docs/delivery.md, Assignment). The server, the client library (src/client) and the
 * console all assign with this module, so that a unit gets the same answer everywhere; it
 * imports nothing but a constant, so the client library stays free of dependencies.
 */

/** Buckets a unit can fall in; a variant of weight w covers w × 100 of them. */
export const BUCKETS = 10_000;
export { MAX_UNIT_ID_LENGTH } from './limits';

const FNV_OFFSET_BASIS = 2_166_136_261;
const FNV_PRIME = 16_777_619;

type SettingValue = string | number | boolean;
type SettingsMap = Readonly<Record<string, SettingValue>>;

/** What assignment reads of a test: the delivery view's tests have this shape. */
export interface AssignableTest {
  readonly id: string;
  readonly status: string;
  readonly variants: readonly {
    readonly id: string;
    readonly weight: number;
    readonly settings?: SettingsMap;
  }[];
}

/** What assignment reads of an app's view. */
export interface AssignableView {
  readonly app: { readonly settings?: SettingsMap };
  readonly ab_tests: readonly AssignableTest[];
}

export interface Assignment {
  readonly settings: Record<string, SettingValue>;
  readonly tests: { id: string; variant: string }[];
}

function mix(hash: number, byte: number): number {
  // Math.imul multiplies modulo 2^32, as FNV asks; `>>> 0` reads the result unsigned.
  return Math.imul(hash ^ byte, FNV_PRIME) >>> 0;
}

/**
 * FNV-1a, 32 bits, over the UTF-8 bytes of `text`. A lone surrogate counts as U+FFFD, as
 * `TextEncoder` encodes it, without allocating the bytes.
 */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (let index = 0; index < text.length; index += 1) {
    let point = text.charCodeAt(index);
    if (point >= 0xd800 && point <= 0xdfff) {
      const next = index + 1 < text.length ? text.charCodeAt(index + 1) : 0;
      if (point <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        point = 0x10000 + ((point - 0xd800) << 10) + (next - 0xdc00);
        index += 1;
      } else {
        point = 0xfffd;
      }
    }
    if (point < 0x80) {
      hash = mix(hash, point);
    } else if (point < 0x800) {
      hash = mix(hash, 0xc0 | (point >> 6));
      hash = mix(hash, 0x80 | (point & 0x3f));
    } else if (point < 0x10000) {
      hash = mix(hash, 0xe0 | (point >> 12));
      hash = mix(hash, 0x80 | ((point >> 6) & 0x3f));
      hash = mix(hash, 0x80 | (point & 0x3f));
    } else {
      hash = mix(hash, 0xf0 | (point >> 18));
      hash = mix(hash, 0x80 | ((point >> 12) & 0x3f));
      hash = mix(hash, 0x80 | ((point >> 6) & 0x3f));
      hash = mix(hash, 0x80 | (point & 0x3f));
    }
  }
  return hash;
}

/** The unit's bucket in a test, 0–9,999. */
export function bucketOf(testId: string, unitId: string): number {
  return fnv1a32(`${testId}:${unitId}`) % BUCKETS;
}

/**
 * The variant whose range of buckets holds the unit's, variants in their listed order;
 * undefined when the test is not running (or its weights, which a valid config makes sum to
 * 100, leave the bucket uncovered).
 */
export function variantOf(
  test: AssignableTest,
  unitId: string,
): AssignableTest['variants'][number] | undefined {
  if (test.status !== 'running') return undefined;
  const bucket = bucketOf(test.id, unitId);
  let end = 0;
  for (const variant of test.variants) {
    end += variant.weight * 100;
    if (bucket < end) return variant;
  }
  return undefined;
}

/** The app's settings with each running test's variant laid over them, tests in order. */
export function assign(view: AssignableView, unitId: string): Assignment {
  const settings: Record<string, SettingValue> = { ...view.app.settings };
  const tests: { id: string; variant: string }[] = [];
  for (const test of view.ab_tests) {
    const variant = variantOf(test, unitId);
    if (variant === undefined) continue;
    Object.assign(settings, variant.settings);
    tests.push({ id: test.id, variant: variant.id });
  }
  return { settings, tests };
}
