/** `provisioning config …`: the commands, and how one is run (its exit code). */
import { EXIT, type CommandIo, type ConfigCommand, type ExitCode } from './command-io';
import { diffCommand } from './diff-command';
import { pullCommand } from './pull-command';
import { pushCommand } from './push-command';
import { schemaCommand } from './schema-command';
import { validateCommand } from './validate-command';

export const CONFIG_COMMANDS = {
  pull: pullCommand,
  validate: validateCommand,
  diff: diffCommand,
  push: pushCommand,
  schema: schemaCommand,
} as const satisfies Record<string, ConfigCommand>;

export type ConfigCommandName = keyof typeof CONFIG_COMMANDS;

/** Runs one command; what went wrong with the command itself goes to stderr, exit 2. */
export async function runConfigCommand(
  name: ConfigCommandName,
  args: readonly string[],
  io: CommandIo,
): Promise<ExitCode> {
  const command = CONFIG_COMMANDS[name];
  if (args.includes('--help')) {
    io.stdout(`Usage: provisioning ${command.usage}\n`);
    return EXIT.clean;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    // Whatever stopped the command (a misuse, a file, the service) is not a finding: exit 2.
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`provisioning config ${name}: ${message}\n`);
    return EXIT.failed;
  }
}
