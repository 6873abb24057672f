/**
 * The client's hand-written check of a view agrees with the contract's schema on good views
 * and names what is wrong in bad ones; its view type is the contract's.
 */
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { deliveryViewSchema, type DeliveryView as ContractView } from '../contract/delivery';
import type { DeliveryView } from './provisioning-client';
import { sampleView } from './testing/delivery-stub';
import { viewProblem } from './view-check';

describe("the client's check of a view", () => {
  it('has the contract type, field for field', () => {
    expectTypeOf<DeliveryView>().toEqualTypeOf<ContractView>();
  });

  it('accepts what the contract accepts', () => {
    expect(deliveryViewSchema.parse(sampleView(1))).toEqual(sampleView(1));
    expect(viewProblem(sampleView(1))).toBeUndefined();
    expect(viewProblem({ ...sampleView(1), ab_tests: [] })).toBeUndefined();
  });

  it.each([
    [null, 'view: not an object'],
    [[], 'view: not an object'],
    [{ ...sampleView(1), config: undefined }, 'view.config: not an object'],
    [{ ...sampleView(1), ab_tests: {} }, 'view.ab_tests: not a list'],
    [
      { ...sampleView(1), config: { id: 'c', revision: '2', published_at: 'x' } },
      'view.config.revision: not a number',
    ],
    [
      { ...sampleView(1), config: { id: 'c', revision: Infinity, published_at: 'x' } },
      'view.config.revision: not a number',
    ],
    [
      { ...sampleView(1), app: { ...sampleView(1).app, enabled: 'yes' } },
      'view.app.enabled: not a boolean',
    ],
    [
      { ...sampleView(1), app: { ...sampleView(1).app, settings: { a: null } } },
      'view.app.settings.a: not a string, number or boolean',
    ],
    [
      { ...sampleView(1), app: { ...sampleView(1).app, settings: { a: { b: 1 } } } },
      'view.app.settings.a: not a string, number or boolean',
    ],
    [
      {
        ...sampleView(1),
        ab_tests: [{ id: 't', status: 'running', variants: [{ id: 'v', weight: 100 }] }],
      },
      'view.ab_tests[0].variants[0].settings: not an object',
    ],
    [
      {
        ...sampleView(1),
        ab_tests: [
          { id: 't', status: 'running', variants: [{ id: 7, weight: 100, settings: {} }] },
        ],
      },
      'view.ab_tests[0].variants[0].id: not a string',
    ],
  ])('refuses %j: %s', (value, problem) => {
    expect(viewProblem(value)).toBe(problem);
    expect(deliveryViewSchema.safeParse(value).success).toBe(false);
  });

  it('agrees with the contract when any one part of a view is replaced by any JSON', () => {
    const paths = pathsOf(sampleView(1)).filter((path) => path.at(-1) !== 'published_at');
    fc.assert(
      fc.property(fc.nat({ max: paths.length - 1 }), fc.jsonValue(), (index, value) => {
        const view: unknown = structuredClone(sampleView(1));
        replaceAt(view, paths[index] ?? [], value);
        const contractSays = deliveryViewSchema.safeParse(view).success;
        expect(viewProblem(view) === undefined).toBe(contractSays);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws, whatever arrives', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(() => viewProblem(value)).not.toThrow();
      }),
    );
  });
});

/** Every path in a JSON value, to its containers as well as its leaves. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [path];
  const children = Object.entries(value).flatMap(([key, child]) =>
    pathsOf(child, [...path, Array.isArray(value) ? Number(key) : key]),
  );
  return path.length === 0 ? children : [path, ...children];
}

function replaceAt(root: unknown, path: (string | number)[], value: unknown): void {
  let parent = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path.at(-1);
  if (last !== undefined) parent[last] = value;
}
