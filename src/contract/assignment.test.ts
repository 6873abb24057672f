import { describe, expect, it } from 'vitest';
import { assign, bucketOf, fnv1a32, variantOf, type AssignableTest } from './assignment';

/** The reference: FNV-1a over the bytes Node's own UTF-8 encoder gives. */
function referenceFnv(text: string): number {
  let hash = 2_166_136_261;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 16_777_619) >>> 0;
  return hash >>> 0;
}

describe('FNV-1a 32-bit', () => {
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ])('matches the published vector for %j', (text, hash) => {
    expect(fnv1a32(text)).toBe(hash);
  });

  it.each([
    ['checkout-test:user-1', 602_386_839],
    ['hero:u-42', 897_413_005],
    ['test:🚀', 3_310_384_738],
    ['x:é', 3_040_392_639],
  ])('hashes the UTF-8 bytes of %j', (text, hash) => {
    expect(fnv1a32(text)).toBe(hash);
  });

  it('agrees with a byte-wise reference on every kind of character, lone surrogates too', () => {
    for (const text of [
      'ü',
      'ह',
      '中文',
      '𝄞x',
      'a\ud800b',
      '\udc00',
      'end\ud83d',
      'x'.repeat(300),
    ]) {
      expect(fnv1a32(text)).toBe(referenceFnv(text));
    }
  });
});

describe('assignment', () => {
  const test: AssignableTest = {
    id: 'checkout',
    status: 'running',
    variants: [
      { id: 'control', weight: 50, settings: { color: 'blue' } },
      { id: 'green', weight: 30, settings: { color: 'green' } },
      { id: 'red', weight: 20, settings: { color: 'red', size: 2 } },
    ],
  };

  it.each([
    ['user-1', 4560, 'control'],
    ['user-2', 7417, 'green'],
    ['user-3', 9798, 'red'],
    ['user-4', 2655, 'control'],
    ['user-5', 5036, 'green'],
    ['🚀-device', 2863, 'control'],
  ])(
    'puts %s in bucket %i, so in %s (a fixed vector: it must never change)',
    (unit, bucket, variant) => {
      expect(bucketOf('checkout', unit)).toBe(bucket);
      expect(variantOf(test, unit)?.id).toBe(variant);
    },
  );

  it('splits 100,000 units within one point of the weights', () => {
    const counts = new Map<string, number>();
    for (let unit = 0; unit < 100_000; unit += 1) {
      const variant = variantOf(test, `unit-${unit}`)?.id ?? 'none';
      counts.set(variant, (counts.get(variant) ?? 0) + 1);
    }
    expect(Math.abs((counts.get('control') ?? 0) / 1000 - 50)).toBeLessThanOrEqual(1);
    expect(Math.abs((counts.get('green') ?? 0) / 1000 - 30)).toBeLessThanOrEqual(1);
    expect(Math.abs((counts.get('red') ?? 0) / 1000 - 20)).toBeLessThanOrEqual(1);
    expect(counts.get('none')).toBeUndefined();
  });

  it('assigns nothing in a test that is not running', () => {
    for (const status of ['draft', 'ended', 'promoted']) {
      expect(variantOf({ ...test, status }, 'user-1')).toBeUndefined();
    }
  });

  it("lays each running test's variant over the app's settings, tests in order", () => {
    const second: AssignableTest = {
      id: 'size',
      status: 'running',
      variants: [{ id: 'big', weight: 100, settings: { size: 3 } }],
    };
    const view = {
      app: { settings: { color: 'grey', size: 1, keep: true } },
      ab_tests: [test, second],
    };
    const result = assign(view, 'user-1');
    const first = variantOf(test, 'user-1');
    expect(result.tests).toEqual([
      { id: 'checkout', variant: first?.id },
      { id: 'size', variant: 'big' },
    ]);
    expect(result.settings).toEqual({ ...view.app.settings, ...first?.settings, size: 3 });
    expect(view.app.settings).toEqual({ color: 'grey', size: 1, keep: true });
  });
});
