import fc from 'fast-check';
import { Document } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../contract/operations';
import type { EditConflict } from '../../contract/problem';
import { isPlainObject } from '../data';
import { isArrayIndexToken, parsePointer } from '../json-pointer';
import { applyOperations } from '../operations/apply-operations';
import { parseConfig, YAML_STRINGIFY_OPTIONS } from '../parse';
import { configArb, scalarArb, type Data } from '../testing/config-arbitraries';
import { judgeMerge, type MergeJudgment } from './merge-edits';
import { idOf, listOf, overlaps, touchesOf, uniqueIdAt, type MeaningKey } from './touches';

const AT = '2026-11-23T10:00:00.000Z';

function documentOf(data: Data) {
  return parseConfig(new Document(data).toString(YAML_STRINGIFY_OPTIONS)).document;
}

/** `operations` applied to a copy of `document`; undefined when they are refused. */
function applied(document: Document, operations: readonly Operation[]) {
  const copy = document.clone();
  return applyOperations(copy, operations).ok ? copy : undefined;
}

/** `mine`, made on `base`, judged against `theirs` (newer edits) that made `current`. */
function judge(
  base: Document,
  current: Document,
  mine: readonly Operation[],
  theirs: readonly Operation[],
): MergeJudgment {
  return judgeMerge({
    mine,
    // Their operations as one newer edit per operation (revisions 2, 3, ...).
    newer: theirs.map((operation, index) => ({
      revision: index + 2,
      by: 'ana@example.com',
      at: AT,
      operations: [operation],
    })),
    base: () => base.clone(),
    current: () => current,
  });
}

/** Data with the items of `apps` and `ab_tests` in id order: order is not what an edit means. */
function byMeaning(document: Document): unknown {
  const data = document.toJS() as unknown;
  if (!isPlainObject(data)) return data;
  const sorted: Data = { ...data };
  for (const list of ['apps', 'ab_tests']) {
    const items = listOf(data, list);
    if (items === undefined) continue;
    sorted[list] = [...items].sort((a, b) =>
      JSON.stringify(idOf(a) ?? a).localeCompare(JSON.stringify(idOf(b) ?? b)),
    );
  }
  return sorted;
}

/** Operations on the ids of `data` (and a few new ones), by id and by position. */
function operationsArb(data: Data): fc.Arbitrary<Operation[]> {
  const appIds = (listOf(data, 'apps') ?? []).map(idOf).filter((id) => id !== undefined);
  const testIds = (listOf(data, 'ab_tests') ?? []).map(idOf).filter((id) => id !== undefined);
  const appId = fc.constantFrom(...appIds, 'new-a', 'new-b');
  const testId = fc.constantFrom(...testIds, 'new-t');
  const index = fc.nat({ max: Math.max(appIds.length, 1) });
  const settingKey = fc.constantFrom('theme', 'size', 'flow');
  const value = fc.oneof(scalarArb, fc.constantFrom('same', 'other'));
  const field = fc.constantFrom('name', 'platform', 'enabled');
  const pointer = fc.oneof(
    fc.tuple(index, field).map(([at, name]) => `/apps/${at}/${name}`),
    fc.tuple(index, settingKey).map(([at, key]) => `/apps/${at}/settings/${key}`),
    index.map((at) => `/apps/${at}`),
    fc.constantFrom('/notes', '/notes/owner', '/notes/team', '/ab_tests/0/description'),
  );
  const operation: fc.Arbitrary<Operation> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(appId, field, value)
        .map(([id, name, v]) => ({ update_app: [{ id, [name]: v }] }) as Operation),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          appId,
          fc.dictionary(settingKey, fc.option(value, { nil: null }), { minKeys: 1, maxKeys: 2 }),
        )
        .map(([id, settings]) => ({ update_app: [{ id, settings }] }) as Operation),
    },
    appId.map((id) => ({ create_app: [{ id, name: id, platform: 'web' }] }) as Operation),
    appId.map((id) => ({ delete_app: [{ id }] }) as Operation),
    {
      weight: 3,
      arbitrary: fc
        .tuple(pointer, value)
        .map(([path, v]) => ({ set: [{ path, value: v }] }) as Operation),
    },
    appId.map(
      (id) =>
        ({ set: [{ path: '/apps/-', value: { id, name: id, platform: 'ios' } }] }) as Operation,
    ),
    pointer.map((path) => ({ unset: [{ path }] }) as Operation),
    fc
      .tuple(testId, value)
      .map(([id, description]) => ({ update_ab_test: [{ id, description }] }) as Operation),
    testId.map((id) => ({ delete_ab_test: [{ id }] }) as Operation),
  );
  return fc.array(operation, { minLength: 1, maxLength: 3 });
}

const scenarioArb = configArb.chain((data) =>
  fc.record({ data: fc.constant(data), theirs: operationsArb(data), mine: operationsArb(data) }),
);

/**
 * An independent account of what operations wrote: the paths the apply itself reports,
 * named by id as the items were just before or just after each operation.
 */
function writtenKeys(base: Document, operations: readonly Operation[]): MeaningKey[] {
  const keys: MeaningKey[] = [];
  const document = base.clone();
  for (const operation of operations) {
    const before = document.toJS() as unknown;
    const result = applyOperations(document, [operation]);
    if (!result.ok) return keys;
    const after = document.toJS() as unknown;
    for (const path of result.appliedPaths) keys.push(...keysOf(path, [before, after]));
  }
  return keys;
}

/** A data pointer as meaning keys, its list index read as the id in each of `datas`. */
function keysOf(path: string, datas: readonly unknown[]): MeaningKey[] {
  const [list, position, ...rest] = parsePointer(path);
  if ((list !== 'apps' && list !== 'ab_tests') || position === undefined) {
    return [parsePointer(path)];
  }
  if (!isArrayIndexToken(position)) return [[list]];
  // An item whose id is missing or repeated is known only by its position: the whole list.
  const ids = datas.map((data) => uniqueIdAt(listOf(data, list) ?? [], Number(position)));
  if (ids.every((id) => id === undefined)) return [[list]];
  return ids.map((id) => (id === undefined ? [list] : [list, id, ...rest]));
}

describe('judging a merge', () => {
  it('merges only what commutes: theirs then mine equals mine then theirs', () => {
    let merges = 0;
    let conflicts = 0;
    fc.assert(
      fc.property(scenarioArb, ({ data, theirs, mine }) => {
        const base = documentOf(data);
        const current = applied(base, theirs);
        const mineOnBase = applied(base, mine);
        fc.pre(current !== undefined && mineOnBase !== undefined);
        const judgment = judge(base, current, mine, theirs);
        if (judgment.kind === 'base_unavailable') throw new Error('the base was given');
        if (judgment.kind === 'conflict') {
          conflicts++;
          expectReallyTouchedByBoth(judgment.conflicts, base, current, mineOnBase, mine, theirs);
          return;
        }
        expect(judgment.mergedRevisions).toEqual(theirs.map((_, index) => index + 2));
        // The same judgment the other way round merges too, and both orders agree.
        const reverse = judge(base, mineOnBase, theirs, mine);
        expect(reverse.kind).toBe('merge');
        if (reverse.kind !== 'merge') return;
        const theirsThenMine = applied(current, judgment.operations);
        const mineThenTheirs = applied(mineOnBase, reverse.operations);
        // An operation may refuse what the other edit left (delete_app reads ab_tests, which a
        // set may have made a mapping): the server then answers with that refusal.
        if (theirsThenMine === undefined || mineThenTheirs === undefined) return;
        merges++;
        expect(byMeaning(theirsThenMine)).toEqual(byMeaning(mineThenTheirs));
      }),
      {
        numRuns: 300,
        examples: [
          // Found by CI: an append where there is no list writes a key "-" in both edits.
          [
            {
              data: {},
              theirs: [
                {
                  set: [
                    { path: '/apps/-', value: { id: 'new-b', name: 'new-b', platform: 'ios' } },
                  ],
                },
              ],
              mine: [
                {
                  set: [
                    { path: '/apps/-', value: { id: 'new-a', name: 'new-a', platform: 'ios' } },
                  ],
                },
              ],
            },
          ],
        ],
      },
    );
    // Both outcomes were exercised, not one of them by accident.
    expect(merges).toBeGreaterThan(30);
    expect(conflicts).toBeGreaterThan(30);
  });

  function expectReallyTouchedByBoth(
    found: readonly EditConflict[],
    base: Document,
    current: Document,
    mineOnBase: Document,
    mine: readonly Operation[],
    theirs: readonly Operation[],
  ) {
    expect(found.length).toBeGreaterThan(0);
    const datas = [current.toJS(), base.toJS(), mineOnBase.toJS()] as unknown[];
    const theirsWrote = writtenKeys(base, theirs);
    const mineWrote = writtenKeys(base, mine);
    for (const conflict of found) {
      const keys = keysOf(conflict.path, datas);
      const touchedBy = (wrote: readonly MeaningKey[]) =>
        keys.some((key) => wrote.some((written) => overlaps(key, written)));
      expect(touchedBy(theirsWrote), `theirs at ${conflict.path}`).toBe(true);
      expect(touchedBy(mineWrote), `mine at ${conflict.path}`).toBe(true);
    }
  }

  it('merges two writes of the same value, but not two creates or an item replaced whole', () => {
    const base = documentOf({
      apps: [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
      ],
    });
    const judged = (mine: Operation[], theirs: Operation[]) => {
      const current = applied(base, theirs);
      if (!current) throw new Error('theirs refused');
      return judge(base, current, mine, theirs).kind;
    };
    const rename: Operation = { update_app: [{ id: 'a', name: 'Same' }] };
    expect(judged([rename], [rename])).toBe('merge');
    expect(judged([{ set: [{ path: '/apps/0/name', value: 'Same' }] }], [rename])).toBe('merge');
    expect(judged([{ update_app: [{ id: 'a', name: 'Other' }] }], [rename])).toBe('conflict');
    const create: Operation = { create_app: [{ id: 'c', name: 'C' }] };
    expect(judged([create], [create])).toBe('conflict');
    // The whole list rewritten on one side: the same name on the other is not enough.
    const list = { set: [{ path: '/apps', value: [{ id: 'a', name: 'Same' }] }] } as Operation;
    expect(judged([rename], [list])).toBe('conflict');
  });

  it('reads positions in the config each operation applied to', () => {
    const base = documentOf({ apps: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
    // Removing the first app moves "c" to index 1: the second pointer names "c".
    const touches = touchesOf(
      [{ unset: [{ path: '/apps/0' }] }, { set: [{ path: '/apps/1/name', value: 'C' }] }],
      (index) => (index === 0 ? base.toJS() : { apps: [{ id: 'b' }, { id: 'c' }] }),
    );
    expect(touches.map((touch) => touch.key)).toEqual([
      ['apps', 'a'],
      ['apps', 'c', 'name'],
    ]);
  });

  it('judges settings keys one by one, and a lifecycle step by the test status fields', () => {
    const keys = (operations: Operation[]) =>
      touchesOf(operations, () => ({
        ab_tests: [{ id: 't', app: 'a' }],
      })).map((touch) => touch.key);
    expect(keys([{ update_app: [{ id: 'a', settings: { x: 1, y: null } }] }])).toEqual([
      ['apps', 'a', 'settings', 'x'],
      ['apps', 'a', 'settings', 'y'],
    ]);
    expect(keys([{ start_ab_test: [{ id: 't' }] }])).toEqual([
      ['ab_tests', 't', 'status'],
      ['ab_tests', 't', 'started_at'],
    ]);
    // An action the judgment does not know touches everything, so it never merges unseen.
    expect(keys([{ new_action: [{ id: 'a' }] } as unknown as Operation])).toEqual([[]]);
    expect(keys([{ promote_ab_test: [{ id: 't', variant: 'v' }] }])).toContainEqual([
      'apps',
      'a',
      'settings',
    ]);
  });
});

describe('positions read without rebuilding the base', () => {
  const start = () =>
    documentOf({
      apps: [
        { id: 'a', name: 'A', platform: 'web' },
        { id: 'b', name: 'B', platform: 'ios' },
      ],
    });
  const judgeWithoutBase = (mine: Operation[], theirs: Operation[]) => {
    const current = applied(start(), theirs);
    if (!current) throw new Error('theirs do not apply');
    let rebuilt = 0;
    const judgment = judgeMerge({
      mine,
      newer: [{ revision: 2, by: 'ana@example.com', at: AT, operations: theirs }],
      base: () => {
        rebuilt += 1;
        return start();
      },
      current: () => current,
    });
    return { judgment, rebuilt };
  };

  it('reads positions on the current config when the newer edits moved no item', () => {
    const { judgment, rebuilt } = judgeWithoutBase(
      [{ set: [{ path: '/apps/1/name', value: 'Mine' }] }],
      [
        { update_app: [{ id: 'a', name: 'Theirs' }] },
        { set: [{ path: '/apps/0/enabled', value: false }] },
      ],
    );
    expect(judgment).toMatchObject({ kind: 'merge', mergedRevisions: [2] });
    expect(rebuilt).toBe(0);
  });

  it('rebuilds the base when a newer edit created, deleted or re-identified an item', () => {
    for (const theirs of [
      [{ create_app: [{ id: 'c', name: 'C', platform: 'web' }] }],
      [{ delete_app: [{ id: 'a' }] }],
      [{ set: [{ path: '/apps/0/id', value: 'z' }] }],
    ] as Operation[][]) {
      const { rebuilt } = judgeWithoutBase(
        [{ set: [{ path: '/apps/1/name', value: 'Mine' }] }],
        theirs,
      );
      expect(rebuilt).toBeGreaterThan(0);
    }
  });
});
