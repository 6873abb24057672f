/**
 * `config pull`: the config's text exactly as stored, to stdout or `--out`, and its revision
 * (a number and a line end, nothing else) in `--revision-file` when asked, for a later
 * `push --base-revision`.
 */
import { parseCommandArguments, stringOption, writeText } from './arguments';
import { CommandFailed, EXIT, type ConfigCommand } from './command-io';
import { readConfig } from './config-target';
import { clientFrom, CONNECTION_OPTIONS } from './service-client';

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  config: { type: 'string' },
  out: { type: 'string' },
  'revision-file': { type: 'string' },
} as const;

export const pullCommand: ConfigCommand = {
  usage:
    'config pull [--config live|ID] [--out FILE] [--revision-file FILE]   the stored text, byte for byte',
  async run(args, io) {
    const { values, files } = parseCommandArguments(args, OPTIONS);
    if (files.length > 0) throw new CommandFailed(`unexpected ${files.join(' ')}: use --out FILE`);
    const client = clientFrom(values, io);
    const record = await readConfig(client, stringOption(values, 'config'));
    const out = stringOption(values, 'out');
    if (out === undefined) io.stdout(record.yaml);
    else writeText(out, record.yaml);
    const revisionFile = stringOption(values, 'revision-file');
    if (revisionFile !== undefined) writeText(revisionFile, `${record.revision}\n`);
    return EXIT.clean;
  },
};
