/**
 * `config diff FILE`: the operations that would turn the service's config into the file,
 * as YAML (or JSON). Exit 0 when nothing would change, 1 when something would (like
 * `git diff --exit-code`), 2 when the file cannot be read as a config or the command fails.
 */
import { stringify } from 'yaml';
import { YAML_STRINGIFY_OPTIONS } from '../configs/parse';
import { formatOption, oneFile, parseCommandArguments, readText, stringOption } from './arguments';
import { EXIT, type ConfigCommand } from './command-io';
import { readConfig } from './config-target';
import { fileEdit, shownOperations } from './file-edit';
import { issueLines, json } from './issue-formats';
import { clientFrom, CONNECTION_OPTIONS } from './service-client';

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  against: { type: 'string' },
  format: { type: 'string' },
} as const;

export const diffCommand: ConfigCommand = {
  usage:
    'config diff FILE [--against live|ID] [--format yaml|json]   the operations that would make the config the file; exit 1 when there are any',
  async run(args, io) {
    const { values, files } = parseCommandArguments(args, OPTIONS);
    const format = formatOption(values, ['yaml', 'json'] as const);
    const file = oneFile(files, 'file to compare');
    const text = readText(file);
    const client = clientFrom(values, io);
    const record = await readConfig(client, stringOption(values, 'against'));
    const edit = fileEdit(record.yaml, text);
    if (edit.kind === 'syntax_error') {
      io.stdout(issueLines(file, edit.issues));
      io.stderr(`provisioning config diff: ${file} cannot be read as a config\n`);
      return EXIT.failed;
    }
    const operations = edit.kind === 'changed' ? shownOperations(edit) : [];
    io.stdout(format === 'json' ? json(operations) : stringify(operations, YAML_STRINGIFY_OPTIONS));
    return edit.kind === 'changed' ? EXIT.found : EXIT.clean;
  },
};
