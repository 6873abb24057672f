/**
 * `config push FILE --summary TEXT`: the file's operations and text sent as one edit, so that
 * the stored text is the file byte for byte. With `--base-revision` (the revision the file
 * was pulled at) the edit is made on that revision's text and merged with the edits since;
 * a conflict saves nothing. Exit 0: saved and valid (and published or sent for review when
 * asked), or nothing to change; 1: saved with errors, not saved, or not published; 2: the
 * command failed. `--format json` tells the same as one object, for CI to read.
 */
import { normalizeLineEnds } from '../configs/parse';
import type { ConfigRecord } from '../contract/configs';
import {
  formatOption,
  oneFile,
  parseCommandArguments,
  readText,
  requiredOption,
  stringOption,
  type OptionValues,
} from './arguments';
import { CommandFailed, EXIT, type ConfigCommand, type ExitCode } from './command-io';
import { readConfig } from './config-target';
import { fileEdit } from './file-edit';
import { pushJson, pushText, type NextStep, type PushOutput } from './push-output';
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
  format: { type: 'string' },
} as const;

/** What the service says about the config itself (a conflict, a refused edit): a result, not a failure of the command. */
const isAboutTheConfig = (problem: ServiceProblem) => [409, 422].includes(problem.problem.status);

export const pushCommand: ConfigCommand = {
  usage:
    'config push FILE --summary TEXT [--config ID] [--base-revision N] [--publish | --request-review] [--format text|json]   the file as a draft, its issues at their positions',
  async run(args, io) {
    const { values, files } = parseCommandArguments(args, OPTIONS);
    const format = formatOption(values, ['text', 'json'] as const);
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
    const output = format === 'json' ? pushJson(io, file, text, target) : pushText(io, file, text);
    const code = await push(client, output, { target, base, baseText, text, summary, then });
    output.end();
    return code;
  },
};

interface Push {
  readonly target: ConfigRecord;
  readonly base: number;
  readonly baseText: string;
  readonly text: string;
  readonly summary: string;
  readonly then: NextStep | undefined;
}

/** The edit sent, then the next step asked for; each step told to `output`. */
async function push(
  client: ServiceClient,
  output: PushOutput,
  { target, base, baseText, text, summary, then }: Push,
): Promise<ExitCode> {
  const edit = fileEdit(baseText, text);
  if (edit.kind === 'syntax_error') {
    output.notAConfig(edit.issues);
    return EXIT.found;
  }
  if (edit.kind === 'unchanged') {
    output.unchanged(target, base);
    return target.kind === 'draft'
      ? afterSave(client, output, target.id, summary, then)
      : EXIT.clean;
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
    output.saved(result);
    if (!result.validation.valid) {
      if (then !== undefined) output.draftHasErrors(then);
      return EXIT.found;
    }
    return await afterSave(client, output, result.id, summary, then);
  } catch (error) {
    if (!(error instanceof ServiceProblem) || !isAboutTheConfig(error)) throw error;
    output.notSaved(error.problem);
    return EXIT.found;
  }
}

function nextStep(values: OptionValues): NextStep | undefined {
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

/** `--publish` or `--request-review` on the saved draft; a refusal is told with its reason. */
async function afterSave(
  client: ServiceClient,
  output: PushOutput,
  draftId: string,
  summary: string,
  then: NextStep | undefined,
): Promise<ExitCode> {
  if (then === undefined) return EXIT.clean;
  try {
    const record: ConfigRecord =
      then === 'publish'
        ? await client.call('publishConfig', { params: { id: draftId }, body: { summary } })
        : await client.call('requestReview', { params: { id: draftId }, body: { note: summary } });
    if (then === 'publish') output.published(record);
    else output.reviewRequested(record);
    return EXIT.clean;
  } catch (error) {
    if (!(error instanceof ServiceProblem) || error.problem.status >= 500) throw error;
    output.notDone(then, error.problem);
    return EXIT.found;
  }
}
