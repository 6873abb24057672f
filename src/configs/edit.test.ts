import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operations as op, type Operation } from '../contract/operations';
import { deepEqual } from './data';
import { applyEdit, type AppliedEdit, type EditableConfig } from './edit';
import { parseConfig, stringifyConfig } from './parse';
import { textChangesBetween } from './text-edit';
import { appEditArb, commentedArb, operationArb, textArb } from './testing/edit-arbitraries';
import { largeConfigText } from './testing/large-config';
import { validateParsedConfig } from './validation/validate';

const NOW = new Date('2026-01-01T00:00:00.000Z');
const OPTIONS = { now: NOW, source: { type: 'draft', name: 'Draft' } } as const;

function applied(config: EditableConfig, operations: readonly Operation[]): AppliedEdit {
  const result = applyEdit(config, operations, OPTIONS);
  if (result.kind !== 'applied') throw new Error(result.kind);
  return result;
}

const rename = (id: string, name: string): Operation[] => [{ update_app: [{ id, name }] }];

describe('applyEdit', () => {
  it('returns the edited text, its document, report, changes, paths and ranges', () => {
    const result = applied({ parsed: parseConfig(largeConfigText(20)) }, rename('app-7', ''));
    expect(result.text).toContain('  - id: app-7\n    name: ""\n');
    expect(stringifyConfig(result.document)).toBe(result.text);
    expect(result.report).toEqual(validateParsedConfig(parseConfig(result.text), OPTIONS.source));
    expect(result.report.issues.map((issue) => issue.path)).toEqual(['/apps/7/name']);
    expect(result.changes.items.size).toBe(1);
    expect(result.appliedPaths).toEqual(['/apps/7/name']);
    const line = result.text.split('\n').indexOf('    name: ""') + 1;
    expect(result.appliedRanges).toEqual([{ path: '/apps/7/name', line, column: 11, length: 2 }]);
    expect(result.edited.parsed.text).toBe(result.text);
  });

  it('answers the same whether or not the config carries what its last edit learned', () => {
    const text = largeConfigText(200);
    const first = applied({ parsed: parseConfig(text) }, rename('app-50', 'First'));
    expect(first.edited.written).toBeDefined();
    expect(first.edited.findings).toBeDefined();
    const carried = applied(first.edited, rename('app-120', 'Second'));
    const fresh = applied({ parsed: parseConfig(first.text) }, rename('app-120', 'Second'));
    expect(carried.text).toBe(fresh.text);
    expect(carried.report).toEqual(fresh.report);
    expect(carried.appliedRanges).toEqual(fresh.appliedRanges);
    // Only the carried config let validation take the unchanged items' findings again.
    expect(carried.findingsKept).toBeGreaterThan(190);
    expect(fresh.findingsKept).toBe(0);
  });

  it('says why an operation was refused, with a kind and no change kept', () => {
    const config = { parsed: parseConfig(largeConfigText(3)) };
    expect(applyEdit(config, rename('no-such-app', 'x'), OPTIONS)).toMatchObject({
      kind: 'refused',
      refusal: {
        kind: 'not_found',
        code: 'app.not_found',
        requestPath: '/operations/0/update_app/0',
      },
    });
    const taken = [{ create_app: [{ id: 'app-1', name: 'x', platform: 'web' }] }];
    expect(applyEdit({ parsed: parseConfig(largeConfigText(3)) }, taken, OPTIONS)).toMatchObject({
      kind: 'refused',
      refusal: { kind: 'conflict', code: 'app.id_taken' },
    });
    // Malformed on purpose: the contract refuses it first; the applier must too.
    const bad = [{ set: [{ path: '/apps/0/name' }] }] as unknown as Operation[];
    expect(applyEdit({ parsed: parseConfig(largeConfigText(3)) }, bad, OPTIONS)).toMatchObject({
      kind: 'refused',
      refusal: { kind: 'invalid_operation', code: 'operation.invalid_item' },
    });
    const unreadable = { parsed: parseConfig('apps: [\n') };
    expect(applyEdit(unreadable, rename('a', 'b'), OPTIONS)).toMatchObject({
      kind: 'refused',
      refusal: { kind: 'not_allowed_in_state', code: 'config.unreadable' },
    });
  });

  it('stops before parsing a text the caller does not take', () => {
    const seen: string[] = [];
    const result = applyEdit({ parsed: parseConfig(largeConfigText(3)) }, rename('app-1', 'x'), {
      ...OPTIONS,
      textFits: (text) => {
        seen.push(text);
        return false;
      },
    });
    expect(result).toEqual({ kind: 'too_large' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('name: x\n');
  });
});

/** The operations plus the text a person typed, as changes to the config's text. */
const typing = (config: EditableConfig, operations: readonly Operation[], typed: string) => [
  ...operations,
  op.editText(...textChangesBetween(config.parsed.text, typed)),
];

describe('applyEdit with edit_text', () => {
  const SAVED = `# Our apps: keep this header\napps:\n  - id: web-app\n    name: Web\n    platform: web\n`;

  it('keeps what was typed: comments, quotes and order, when it says what the operations do', () => {
    const config = { parsed: parseConfig(SAVED) };
    const typed = `apps:\n  - id: web-app\n    name: "🚀 Rocket" # shown in the store\n    platform: 'web'\n`;
    const result = applied(config, typing(config, rename('web-app', '🚀 Rocket'), typed));
    expect(result.text).toBe(typed);
    expect(result.edited.parsed.text).toBe(typed);
    expect(result.appliedPaths).toEqual(['/apps/0/name']);
    expect(result.appliedRanges).toEqual([
      { path: '/apps/0/name', line: 3, column: 11, length: 11 },
    ]);
    expect(result.report).toEqual(validateParsedConfig(parseConfig(typed), OPTIONS.source));
  });

  it('saves a change of comments alone: edit_text without other operations', () => {
    const config = { parsed: parseConfig(SAVED) };
    const typed = SAVED.replace('# Our apps: keep this header\n', '');
    const result = applied(config, typing(config, [], typed));
    expect(result.text).toBe(typed);
    expect(result.appliedPaths).toEqual([]);
  });

  it('refuses a text that says something the operations do not, naming where', () => {
    const config = { parsed: parseConfig(SAVED) };
    const typed = SAVED.replace('name: Web', 'name: Other');
    const result = applyEdit(config, typing(config, rename('web-app', 'Rocket'), typed), OPTIONS);
    expect(result).toMatchObject({
      kind: 'refused',
      refusal: {
        kind: 'conflict',
        code: 'text_mismatch',
        requestPath: '/operations/1/edit_text/0',
        message: expect.stringContaining(
          'at /apps/0/name it has "Other" where the operations make "Rocket"',
        ),
      },
    });
    const unchanged = applyEdit({ parsed: parseConfig(SAVED) }, typing(config, [], typed), OPTIONS);
    expect(unchanged).toMatchObject({ kind: 'refused', refusal: { code: 'text_mismatch' } });
  });

  it('parses only the items the typed text changed, as a whole parse would', () => {
    const start = applied({ parsed: parseConfig(largeConfigText(200)) }, rename('app-3', 'Three'));
    const typed = start.text.replace(
      '  - id: app-120\n    name: App number 120\n',
      '  - id: app-120\n    # renamed for the launch\n    name: "Launch"\n',
    );
    const result = applied(start.edited, typing(start.edited, rename('app-120', 'Launch'), typed));
    expect(result.text).toBe(typed);
    expect(result.report).toEqual(validateParsedConfig(parseConfig(typed), OPTIONS.source));
    expect(result.findingsKept).toBeGreaterThan(190);
  });

  it('refuses a text that cannot be read, and one past the size limit before parsing it', () => {
    const config = { parsed: parseConfig(SAVED) };
    const broken = applyEdit(config, typing(config, [], `${SAVED}  - [\n`), OPTIONS);
    expect(broken).toMatchObject({
      kind: 'refused',
      refusal: { code: 'text_mismatch', message: expect.stringContaining('cannot be read') },
    });
    const large = applyEdit(
      { parsed: parseConfig(SAVED) },
      typing(config, [], `${SAVED}# ${'x'.repeat(100)}\n`),
      { ...OPTIONS, textFits: (text) => text.length < 100 },
    );
    expect(large).toEqual({ kind: 'too_large' });
  });

  it("takes the typed text exactly when it reads as the operations' data, else refuses it (property)", () => {
    fc.assert(
      fc.property(
        textArb,
        fc.array(appEditArb, { maxLength: 1 }),
        fc.array(operationArb, { minLength: 1, maxLength: 2 }),
        fc.integer(),
        fc.boolean(),
        (text, first, operations, seed, tamper) => {
          // Half the time from a config an edit already made, so its parse is reused.
          const start = applyEdit({ parsed: parseConfig(text) }, first, OPTIONS);
          const config = start.kind === 'applied' ? start.edited : { parsed: parseConfig(text) };
          // Tampered: the text says one thing more than the operations.
          const typedOperations = tamper
            ? [...operations, op.set('/notes', 'tampered')]
            : operations;
          const written = applyEdit(
            { parsed: parseConfig(config.parsed.text) },
            typedOperations,
            OPTIONS,
          );
          fc.pre(written.kind === 'applied');
          if (written.kind !== 'applied') return;
          const [typed] = fc.sample(commentedArb(written.text), { seed, numRuns: 1 });
          if (typed === undefined) return;
          const expected = parseConfig(typed);
          const result = applyEdit(config, typing(config, operations, typed), OPTIONS);
          const meant = applyEdit({ parsed: parseConfig(config.parsed.text) }, operations, OPTIONS);
          const same =
            meant.kind === 'applied' &&
            expected.syntaxIssues.length === 0 &&
            deepEqual(expected.document.toJS(), meant.document.toJS());
          if (!same) {
            expect(result).toMatchObject({ kind: 'refused', refusal: { code: 'text_mismatch' } });
            return;
          }
          if (result.kind !== 'applied') throw new Error(`refused: ${JSON.stringify(result)}`);
          expect(result.text).toBe(typed);
          expect(result.document.toJS()).toEqual(expected.document.toJS());
          expect(result.report).toEqual(validateParsedConfig(expected, OPTIONS.source));
          // And the next edit answers as it would from the typed text parsed afresh.
          const next = [op.set('/notes', 'again')];
          const again = applyEdit(result.edited, next, OPTIONS);
          const fresh = applyEdit({ parsed: parseConfig(typed) }, next, OPTIONS);
          expect(again.kind).toBe(fresh.kind);
          if (again.kind !== 'applied' || fresh.kind !== 'applied') return;
          expect(again.text).toBe(fresh.text);
          expect(again.report).toEqual(fresh.report);
        },
      ),
      { numRuns: 150 },
    );
  });
});
