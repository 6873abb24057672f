import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TextChange } from '../contract/operations';
import { applyTextChanges, textChangesBetween, textEditOf } from './text-edit';

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
