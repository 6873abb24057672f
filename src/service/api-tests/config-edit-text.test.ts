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
