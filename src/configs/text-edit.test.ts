import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TextChange } from '../contract/operations';
import { applyTextChanges, rebaseTextChanges, textChangesBetween, textEditOf } from './text-edit';

const edit = (...changes: TextChange[]) => ({ changes, operationIndex: 2 });

describe('applyTextChanges', () => {
  it('makes each change at its offset in the saved text', () => {
    const changes = [
      { offset: 0, delete_count: 1, insert: '#' },
      { offset: 4, delete_count: 0, insert: 'X' },
      { offset: 6, delete_count: 2, insert: '' },
    ];
    expect(applyTextChanges('abcdefgh', edit(...changes))).toEqual({ ok: true, text: '#bcdXef' });
  });

  it('refuses a change past the end of the text, naming it', () => {
    expect(applyTextChanges('abc', edit({ offset: 2, delete_count: 2, insert: '' }))).toMatchObject(
      {
        ok: false,
        refusal: {
          kind: 'invalid_operation',
          requestPath: '/operations/2/edit_text/0/changes/0',
          message: expect.stringContaining('does not fit the saved text of 3 UTF-16 code units'),
        },
      },
    );
  });

  it('refuses a change that cuts a character in two', () => {
    const text = 'name: 🚀';
    const inside = text.length - 1;
    for (const change of [
      { offset: inside, delete_count: 0, insert: 'x' },
      { offset: 0, delete_count: inside, insert: '' },
    ]) {
      expect(applyTextChanges(text, edit(change))).toMatchObject({
        ok: false,
        refusal: { message: expect.stringContaining('cuts a character in two') },
      });
    }
  });
});

describe('textChangesBetween', () => {
  it('is empty for the same text, and one stretch otherwise', () => {
    expect(textChangesBetween('abc', 'abc')).toEqual([]);
    expect(textChangesBetween('# top\napps: []\n', 'apps: []\n')).toEqual([
      { offset: 0, delete_count: 6, insert: '' },
    ]);
  });

  it('never cuts a character in two', () => {
    const [change] = textChangesBetween('a: 🚀', 'a: 🚁');
    expect(change).toEqual({ offset: 3, delete_count: 2, insert: '🚁' });
  });

  it('gives changes that make the second text of the first (property)', () => {
    const textArb = fc.string({ unit: fc.constantFrom('a', 'b', '\n', ' ', '🚀', '🚁', 'é') });
    fc.assert(
      fc.property(textArb, textArb, (before, after) => {
        const made = applyTextChanges(before, edit(...textChangesBetween(before, after)));
        expect(made).toEqual({ ok: true, text: after });
      }),
    );
  });
});

describe('textEditOf', () => {
  it('finds the edit_text operation and its index', () => {
    const changes = [{ offset: 0, delete_count: 0, insert: '#' }];
    expect(textEditOf([{ set: [{ path: '/a', value: 1 }] }, { edit_text: [{ changes }] }])).toEqual(
      { changes, operationIndex: 1 },
    );
    expect(textEditOf([{ set: [{ path: '/a', value: 1 }] }])).toBeUndefined();
  });
});

describe('rebaseTextChanges', () => {
  const change = (offset: number, deleteCount: number, insert: string) => ({
    offset,
    delete_count: deleteCount,
    insert,
  });

  it('shifts my changes past the ones made before them, and leaves later ones be', () => {
    // Theirs: "ab" -> "abXY" at 2 first, then a change after mine.
    expect(
      rebaseTextChanges([change(10, 2, 'm')], [[change(2, 0, 'XY')], [change(20, 1, '')]]),
    ).toEqual([change(12, 2, 'm')]);
  });

  it('gives up when a change of mine touches or adjoins one of theirs, or theirs are unknown', () => {
    expect(rebaseTextChanges([change(10, 2, 'm')], [[change(11, 0, 'x')]])).toBeUndefined();
    expect(rebaseTextChanges([change(10, 2, 'm')], [[change(12, 1, '')]])).toBeUndefined();
    expect(rebaseTextChanges([change(10, 2, 'm')], [[change(8, 2, '')]])).toBeUndefined();
    expect(rebaseTextChanges([change(10, 2, 'm')], [undefined])).toBeUndefined();
    expect(rebaseTextChanges([change(10, 2, 'm')], [[]])).toEqual([change(10, 2, 'm')]);
  });

  it('gives the text both sets of changes make, when it carries mine over (property)', () => {
    const changesArb = (length: number) =>
      fc.uniqueArray(fc.integer({ min: 0, max: length }), { maxLength: 6 }).chain((starts) =>
        fc.tuple(
          ...[...starts]
            .sort((a, b) => a - b)
            .map((start) =>
              fc.record({
                offset: fc.constant(start),
                delete_count: fc.integer({ min: 0, max: 3 }),
                insert: fc.string({ maxLength: 3, unit: fc.constantFrom('x', 'y', '\n') }),
                mine: fc.boolean(),
              }),
            ),
        ),
      );
    const scenario = fc
      .string({ minLength: 1, maxLength: 30, unit: fc.constantFrom('a', 'b', '\n') })
      .chain((text) => fc.tuple(fc.constant(text), changesArb(text.length)));
    let carried = 0;
    fc.assert(
      fc.property(scenario, ([text, all]) => {
        // Keep a well-formed set: in order, inside the text, none overlapping.
        const changes: (TextChange & { mine: boolean })[] = [];
        for (const candidate of all) {
          const previous = changes.at(-1);
          const free = previous ? previous.offset + previous.delete_count : 0;
          if (candidate.offset < free || candidate.offset + candidate.delete_count > text.length) {
            continue;
          }
          changes.push(candidate);
        }
        const strip = ({ mine: _mine, ...rest }: TextChange & { mine: boolean }) => rest;
        const mine = changes.filter((c) => c.mine).map(strip);
        const theirs = changes.filter((c) => !c.mine).map(strip);
        const rebased = rebaseTextChanges(mine, [theirs]);
        if (rebased === undefined) return;
        carried++;
        const both = applyTextChanges(text, edit(...changes.map(strip)));
        const theirText = applyTextChanges(text, edit(...theirs));
        if (!theirText.ok) throw new Error('theirs do not apply');
        expect(applyTextChanges(theirText.text, edit(...rebased))).toEqual(both);
      }),
      { numRuns: 300 },
    );
    expect(carried).toBeGreaterThan(100);
  });
});
