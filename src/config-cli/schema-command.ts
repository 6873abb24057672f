/** `config schema`: the config's JSON Schema, for editors (`# yaml-language-server: $schema=…`). */
import { configJsonSchema } from '../configs/config-schema';
import { parseCommandArguments } from './arguments';
import { CommandFailed, EXIT, type ConfigCommand } from './command-io';
import { json } from './issue-formats';

export const schemaCommand: ConfigCommand = {
  usage: "config schema   the config's JSON Schema (offline)",
  run(args, io) {
    const { files } = parseCommandArguments(args, {});
    if (files.length > 0) throw new CommandFailed(`unexpected ${files.join(' ')}`);
    io.stdout(json(configJsonSchema));
    return Promise.resolve(EXIT.clean);
  },
};
