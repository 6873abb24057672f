/**
 * `config validate FILE…`: offline, the service's own rules (the config domain runs anywhere).
 * Exit 0 when every file is valid (warnings allowed unless --strict), 1 when one is not, 2
 * when a file cannot be read or the command is misused. Rules that need the account (which
 * metrics exist) are left to the service.
 */
import { validateConfigText } from '../configs/validation/validate';
import { formatOption, parseCommandArguments, readText } from './arguments';
import { CommandFailed, EXIT, type ConfigCommand, type ExitCode } from './command-io';
import { ISSUE_FORMATS, issueLines, json, reportJson } from './issue-formats';

const OPTIONS = { format: { type: 'string' }, strict: { type: 'boolean' } } as const;

export const validateCommand: ConfigCommand = {
  usage:
    'config validate FILE... [--format text|json|github] [--strict]   offline: every problem as FILE:LINE:COLUMN: error|warning CODE MESSAGE',
  run(args, io) {
    const { values, files } = parseCommandArguments(args, OPTIONS);
    const format = formatOption(values, ISSUE_FORMATS);
    if (files.length === 0) throw new CommandFailed('name at least one file to validate');
    const strict = values.strict === true;
    let failed = false;
    let unreadable = false;
    const reports = [];
    for (const file of files) {
      let text: string;
      try {
        text = readText(file);
      } catch (error) {
        io.stderr(`provisioning config validate: ${(error as Error).message}\n`);
        unreadable = true;
        continue;
      }
      const report = validateConfigText(text);
      failed ||= report.error_count > 0 || (strict && report.warning_count > 0);
      if (format === 'json') reports.push(reportJson(file, report));
      else io.stdout(issueLines(file, report.issues, format));
    }
    if (format === 'json') io.stdout(json(reports));
    const code: ExitCode = unreadable ? EXIT.failed : failed ? EXIT.found : EXIT.clean;
    return Promise.resolve(code);
  },
};
