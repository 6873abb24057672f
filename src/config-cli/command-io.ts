/**
 * What a config command reads and writes besides files: its two output streams and the
 * environment. Passed in, so that tests run the commands in process and read what they said.
 */
export interface CommandIo {
  /** Problems and results. */
  readonly stdout: (text: string) => void;
  /** Errors about the command itself (usage, files, the service unreachable). */
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The exit codes: the result is clean; something was found (issues, changes, a refusal); the command failed. */
export const EXIT = { clean: 0, found: 1, failed: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake in how the command was called, or a file it could not read or write: exit 2. */
export class CommandFailed extends Error {}

export function processIo(): CommandIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
  };
}

/** One `provisioning config …` command: its usage line, and what it does with its arguments. */
export interface ConfigCommand {
  readonly usage: string;
  run(args: readonly string[], io: CommandIo): Promise<ExitCode>;
}
