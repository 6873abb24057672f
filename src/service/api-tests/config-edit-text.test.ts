/**
 * POST /config/edit with `edit_text`: the saved text is the one typed (comments, quotes,
 * order), a comment-only change is a save, and a text that says something the operations
 * do not is refused with 409 `text_mismatch`, saving nothing. Malformed changes are 400s.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operations as op, type Operation } from '../../contract/operations';
import { textChangesBetween } from '../../configs/text-edit';
import {
  accountSnapshot,
  edit,
  editOk,
  errorPaths,
  expectProblem,
  ok,
  SHOP_YAML,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;
let admin: string;

beforeEach(async () => {
  service = await startTestService({ initialYaml: SHOP_YAML });
  admin = service.adminKey;
});
afterEach(async () => {
  await service.close();
});

/** A draft of the live config, and its text as the console would have loaded it. */
async function draft(): Promise<{ id: string; yaml: string }> {
  const made = await editOk(service, admin, {
    operations: [op.set('/notes', 'draft')],
    summary: 'Start a draft',
  });
  const record = await ok(service, admin, 'getConfig', { params: { id: made.id } });
  return { id: made.id, yaml: record.yaml };
}

const typing = (saved: string, operations: Operation[], typed: string): Operation[] => [
  ...operations,
  op.editText(...textChangesBetween(saved, typed)),
];

describe('edit_text', () => {
  it('saves the typed text byte for byte: quotes, comments and key order kept', async () => {
    const { id, yaml } = await draft();
    const typed = yaml.replace(
      '  - id: ios-app\n    name: Shop for iOS\n',
      '  - id: ios-app\n    # the App Store name\n    name: "🚀 Rocket"\n',
    );
    const result = await editOk(service, admin, {
      config_id: id,
      operations: typing(yaml, [op.updateApp({ id: 'ios-app', name: '🚀 Rocket' })], typed),
      summary: 'Rename the iOS app',
    });
    expect(result.validation.yaml).toBe(typed);
    expect(result.applied_paths).toEqual(['/apps/1/name']);
    const record = await ok(service, admin, 'getConfig', { params: { id } });
    expect(record.yaml).toBe(typed);
  });

  it('saves a comment-only change as a new revision, with the operation in the history', async () => {
    const { id, yaml } = await draft();
    const typed = yaml.replace('# Apps this account provisions.\n', '');
    expect(typed).not.toBe(yaml);
    const result = await editOk(service, admin, {
      config_id: id,
      operations: typing(yaml, [], typed),
      summary: 'Drop the header comment',
    });
    expect(result).toMatchObject({ revision: 2, applied_paths: [] });
    const record = await ok(service, admin, 'getConfig', { params: { id } });
    expect(record.yaml).toBe(typed);
    const history = await ok(service, admin, 'getConfigHistory', { params: { id } });
    expect(history[0]).toMatchObject({
      summary: 'Drop the header comment',
      operations: [{ edit_text: [{ changes: [{ offset: 0, delete_count: 32, insert: '' }] }] }],
    });
  });

  it('refuses a text that says something the operations do not (409 text_mismatch), saving nothing', async () => {
    const { id, yaml } = await draft();
    const before = await accountSnapshot(service, admin);
    const typed = yaml.replace('theme: light', 'theme: dark');
    const problem = expectProblem(
      await edit(service, admin, {
        config_id: id,
        operations: typing(yaml, [op.updateApp({ id: 'checkout', name: 'Till' })], typed),
        summary: 'Rename',
      }),
      409,
      'text_mismatch',
    );
    expect(problem.detail).toContain(
      'at /apps/0/name it has "Checkout" where the operations make "Till"',
    );
    expect(errorPaths(problem)).toEqual(['/operations/1/edit_text/0']);
    expect(await accountSnapshot(service, admin)).toEqual(before);
  });

  it('refuses a text that does not parse (409 text_mismatch), saving nothing', async () => {
    const { id, yaml } = await draft();
    const before = await accountSnapshot(service, admin);
    const problem = expectProblem(
      await edit(service, admin, {
        config_id: id,
        operations: typing(yaml, [], `${yaml}apps: [\n`),
        summary: 'Broken',
      }),
      409,
      'text_mismatch',
    );
    expect(problem.detail).toContain('the text cannot be read');
    expect(await accountSnapshot(service, admin)).toEqual(before);
  });

  it('answers 400 for changes out of order, past the text, or a second edit_text', async () => {
    const { id, yaml } = await draft();
    const before = await accountSnapshot(service, admin);
    const cases: [Operation[], string][] = [
      [
        [
          op.editText(
            { offset: 5, delete_count: 2, insert: '' },
            { offset: 6, delete_count: 0, insert: 'x' },
          ),
        ],
        '/operations/0/edit_text/0/changes/1/offset',
      ],
      [
        [op.editText({ offset: yaml.length, delete_count: 1, insert: '' })],
        '/operations/0/edit_text/0/changes/0',
      ],
      [[op.editText(), op.editText()], '/operations/1'],
      [
        [{ edit_text: [{ changes: [] }, { changes: [] }] }] as unknown as Operation[],
        '/operations/0/edit_text',
      ],
    ];
    for (const [operations, path] of cases) {
      const problem = expectProblem(
        await edit(service, admin, { config_id: id, operations, summary: 'Bad' }),
        400,
      );
      expect(errorPaths(problem)).toContain(path);
    }
    expect(await accountSnapshot(service, admin)).toEqual(before);
  });

  it('needs a summary, as every ordinary edit does', async () => {
    const { id, yaml } = await draft();
    const problem = expectProblem(
      await edit(service, admin, { config_id: id, operations: typing(yaml, [], `# top\n${yaml}`) }),
      400,
    );
    expect(errorPaths(problem)).toEqual(['/summary']);
  });
});

describe('edit_text in a merged edit', () => {
  /** One person's save on `id`, typed on `saved` at `revision`. */
  const typedSave = (
    id: string,
    revision: number,
    saved: string,
    operations: Operation[],
    typed: string,
  ) =>
    editOk(service, admin, {
      config_id: id,
      base_revision: revision,
      operations: typing(saved, operations, typed),
      summary: 'Typed',
    });

  it('carries my typed text over theirs when the two change different stretches', async () => {
    const { id, yaml } = await draft();
    const theirs = yaml.replace('    name: Checkout\n', '    # the web shop\n    name: Checkout\n');
    await typedSave(id, 1, yaml, [], theirs);
    const mineTyped = yaml.replace('    name: Shop for iOS\n', '    name: "🚀 Rocket" # launch\n');
    const result = await typedSave(
      id,
      1,
      yaml,
      [op.updateApp({ id: 'ios-app', name: '🚀 Rocket' })],
      mineTyped,
    );
    expect(result).toMatchObject({ revision: 3, merged_revisions: [2], text_rebased: true });
    const both = theirs.replace('    name: Shop for iOS\n', '    name: "🚀 Rocket" # launch\n');
    expect(result.validation.yaml).toBe(both);
    expect((await ok(service, admin, 'getConfig', { params: { id } })).yaml).toBe(both);
    // The history keeps the text change as applied, at its place in the newer text.
    const [latest] = await ok(service, admin, 'getConfigHistory', { params: { id } });
    const [change] = textChangesBetween(theirs, both);
    expect(latest?.operations.at(-1)).toEqual({ edit_text: [{ changes: [change] }] });
  });

  it('writes the text itself, keeping both meanings, when my changes meet theirs', async () => {
    const { id, yaml } = await draft();
    const theirs = yaml.replace('    name: Shop for iOS\n', '    name: Shop for iOS # theirs\n');
    await typedSave(id, 1, yaml, [], theirs);
    const mineTyped = yaml.replace('    name: Shop for iOS\n', '    name: "Rocket"\n');
    const result = await typedSave(
      id,
      1,
      yaml,
      [op.updateApp({ id: 'ios-app', name: 'Rocket' })],
      mineTyped,
    );
    expect(result).toMatchObject({ merged_revisions: [2], text_rebased: false });
    const saved = (await ok(service, admin, 'getConfig', { params: { id } })).yaml;
    expect(saved).toContain('name: Rocket');
    expect(saved).not.toContain('"Rocket"');
  });

  it('refuses an edit of the text alone whose changes meet theirs (409 text_conflict), saving nothing', async () => {
    const { id, yaml } = await draft();
    await typedSave(id, 1, yaml, [], yaml.replace('# Apps this account provisions.', '# Theirs'));
    const before = await accountSnapshot(service, admin);
    const problem = expectProblem(
      await edit(service, admin, {
        config_id: id,
        base_revision: 1,
        operations: typing(yaml, [], yaml.replace('# Apps this account provisions.', '# Mine')),
        summary: 'Mine',
      }),
      409,
      'text_conflict',
    );
    expect(problem.detail).toContain('meet those of revision 2');
    expect(await accountSnapshot(service, admin)).toEqual(before);
    // Apart from theirs, an edit of the text alone is carried over.
    const elsewhere = await typedSave(id, 1, yaml, [], `${yaml}# a note at the end\n`);
    expect(elsewhere).toMatchObject({ merged_revisions: [2], text_rebased: true });
  });

  it('says nothing of the text for a merge without edit_text, or an edit at the current revision', async () => {
    const { id, yaml } = await draft();
    const plain = await editOk(service, admin, {
      config_id: id,
      base_revision: 1,
      operations: [op.set('/notes', 'plain')],
      summary: 'Plain',
    });
    expect(plain).not.toHaveProperty('text_rebased');
    const merged = await editOk(service, admin, {
      config_id: id,
      base_revision: 1,
      operations: [op.updateApp({ id: 'ios-app', name: 'iOS' })],
      summary: 'Merged',
    });
    expect(merged.merged_revisions).toEqual([2]);
    expect(merged).not.toHaveProperty('text_rebased');
    expect(yaml).toContain('Shop for iOS');
  });
});
