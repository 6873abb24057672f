/**
 * Files the service reads from the repository. Found from this module, which sits at the
 * same depth (src/service/) as the bundle that replaces it (build/service/cli.mjs).
 */
import { fileURLToPath } from 'node:url';

/** The common passwords a person may not choose (scripts/password-blocklist.mjs). */
export const PASSWORD_BLOCKLIST_FILE = fileURLToPath(
  new URL('../../assets/password-blocklist.txt.br', import.meta.url),
);
