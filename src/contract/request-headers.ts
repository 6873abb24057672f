/**
 * The request headers the contract names beyond HTTP's own. Kept apart from the schema
 * modules: the console's API client sends them on every request, and importing them from a
 * module of schemas would bring all its schemas into the console's first page.
 */
import { described, z } from './zod';

/** The header a console request sends with a session cookie (a CSRF defence). */
export const CONSOLE_REQUEST_HEADER = { name: 'x-requested-with', value: 'console' } as const;

/** The header naming the account a request acts on, for callers that reach several. */
export const ACCOUNT_HEADER = 'x-account-id';

/** Request headers of the GETs that answer 304 when the client's copy is current. */
export const ifNoneMatchHeadersSchema = z.object({
  'if-none-match': described(
    z.optional(z.string()),
    'The ETags of the copies the client holds; 304 without a body when one is current',
  ),
});
