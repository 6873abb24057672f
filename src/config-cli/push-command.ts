/**
 * `config push FILE --summary TEXT`: the file's operations and text sent as one edit, so that
 * the stored text is the file byte for byte. With `--base-revision` (the revision the file
 * was pulled at) the edit is made on that revision's text and merged with the edits since;
 * a conflict saves nothing. Exit 0: saved and valid (and published or sent for review when
 * asked), or nothing to change; 1: saved with errors, not saved, or not published; 2: the
 * command failed.
 */
import { normalizeLineEnds } from '../configs/parse';
import type { ConfigRecord } from '../contract/configs';
import {
  oneFile,
  parseCommandArguments,
  readText,
  requiredOption,
  stringOption,
  type OptionValues,
} from './arguments';
import {
  CommandFailed,
  EXIT,
  type CommandIo,
  type ConfigCommand,
  type ExitCode,
} from './command-io';
import { readConfig } from './config-target';
import { fileEdit } from './file-edit';
import { issueLines } from './issue-formats';
import { conflicts, refused, savedDraft } from './push-output';
import {
  clientFrom,
  CONNECTION_OPTIONS,
  ServiceProblem,
  type ServiceClient,
} from './service-client';

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  summary: { type: 'string' },
  config: { type: 'string' },
  'base-revision': { type: 'string' },
  publish: { type: 'boolean' },
  'request-review': { type: 'boolean' },
} as const;

/** What the service says about the config itself (a conflict, a refused edit): a result, not a failure of the command. */
const isAboutTheConfig = (problem: ServiceProblem) => [409, 422].includes(problem.problem.status);

export const pushCommand: ConfigCommand = {
  usage:
    'config push FILE --summary TEXT [--config ID] [--base-revision N] [--publish | --request-review]   the file as a draft, its issues at their positions',
  async run(args, io) {
    const { values, files } = parseCommandArguments(args, OPTIONS);
    const file = oneFile(files, 'file to push');
    const summary = requiredOption(values, 'summary');
    const then = nextStep(values);
    const baseRevision = revisionOption(values);
    const text = normalizeLineEnds(readText(file));
    const client = clientFrom(values, io);
    const target = await readConfig(client, stringOption(values, 'config'));
    const base = baseRevision ?? target.revision;
    const baseText =
      base === target.revision
        ? target.yaml
        : (
            await client.call('getConfigRevision', {
              params: { id: target.id, revision: String(base) },
            })
          ).yaml;
    const edit = fileEdit(baseText, text);
    if (edit.kind === 'syntax_error') {
      io.stdout(issueLines(file, edit.issues));
      io.stdout(`not saved: ${file} cannot be read as a config\n`);
      return EXIT.found;
    }
    if (edit.kind === 'unchanged') {
      io.stdout(`nothing to change: ${file} is the text of ${target.id} at revision ${base}\n`);
      return target.kind === 'draft' ? afterSave(client, io, target.id, summary, then) : EXIT.clean;
    }
    try {
      const result = await client.call('editConfig', {
        body: {
          operations: edit.operations,
          config_id: target.id,
          summary,
          base_revision: base,
        },
      });
      io.stdout(savedDraft(file, text, result));
      if (!result.validation.valid) {
        if (then !== undefined)
          io.stdout(
            `not ${then === 'publish' ? 'published' : 'sent for review'}: the draft has errors\n`,
          );
        return EXIT.found;
      }
      return await afterSave(client, io, result.id, summary, then);
    } catch (error) {
      if (!(error instanceof ServiceProblem) || !isAboutTheConfig(error)) throw error;
      const { problem } = error;
      io.stdout(
        problem.code === 'edit_conflict' && problem.conflicts
          ? conflicts(problem, problem.conflicts)
          : refused('not saved', problem),
      );
      return EXIT.found;
    }
  },
};

type NextStep = 'publish' | 'request-review' | undefined;

function nextStep(values: OptionValues): NextStep {
  if (values.publish === true && values['request-review'] === true)
    throw new CommandFailed('--publish and --request-review do not go together');
  return values.publish === true
    ? 'publish'
    : values['request-review'] === true
      ? 'request-review'
      : undefined;
}

function revisionOption(values: OptionValues): number | undefined {
  const value = stringOption(values, 'base-revision');
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,9}$/.test(value))
    throw new CommandFailed(`--base-revision must be a revision (1 or more), got "${value}"`);
  return Number(value);
}

/** `--publish` or `--request-review` on the saved draft; a refusal is printed with its reason. */
async function afterSave(
  client: ServiceClient,
  io: CommandIo,
  draftId: string,
  summary: string,
  then: NextStep,
): Promise<ExitCode> {
  if (then === undefined) return EXIT.clean;
  try {
    const record: ConfigRecord =
      then === 'publish'
        ? await client.call('publishConfig', { params: { id: draftId }, body: { summary } })
        : await client.call('requestReview', { params: { id: draftId }, body: { note: summary } });
    io.stdout(
      then === 'publish'
        ? `published ${record.id} (${record.live ? 'live' : 'not live'})\n`
        : `review requested for ${record.id}\n`,
    );
    return EXIT.clean;
  } catch (error) {
    if (!(error instanceof ServiceProblem) || error.problem.status >= 500) throw error;
    io.stdout(
      refused(then === 'publish' ? 'not published' : 'review not requested', error.problem),
    );
    return EXIT.found;
  }
}
