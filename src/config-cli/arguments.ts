/** The options of a config command, read with node:util's parseArgs. */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CommandFailed } from './command-io';

export type OptionTypes = Record<string, { readonly type: 'string' | 'boolean' }>;
export type OptionValues = Readonly<Record<string, string | boolean | undefined>>;

export interface ParsedArguments {
  readonly values: OptionValues;
  readonly files: readonly string[];
}

export function parseCommandArguments(
  args: readonly string[],
  options: OptionTypes,
): ParsedArguments {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options,
      strict: true,
      allowPositionals: true,
    });
    return { values, files: positionals };
  } catch (error) {
    throw new CommandFailed(error instanceof Error ? error.message : String(error));
  }
}

export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (value === '') throw new CommandFailed(`--${name} needs a value`);
  return typeof value === 'string' ? value : undefined;
}

export function requiredOption(values: OptionValues, name: string): string {
  const value = stringOption(values, name);
  if (value === undefined) throw new CommandFailed(`--${name} is required`);
  return value;
}

/** `--format text|json` (and `github` where the command takes it). */
export function formatOption<F extends string>(values: OptionValues, formats: readonly F[]): F {
  const value = stringOption(values, 'format') ?? formats[0];
  if (!(formats as readonly (string | undefined)[]).includes(value))
    throw new CommandFailed(`--format must be one of ${formats.join(', ')}`);
  return value as F;
}

/** The one file a command works on. */
export function oneFile(files: readonly string[], what: string): string {
  if (files.length !== 1) throw new CommandFailed(`name exactly one ${what}`);
  return files[0] as string;
}

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CommandFailed(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
}

export function writeText(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new CommandFailed(
      `cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
}
