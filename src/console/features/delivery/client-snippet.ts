/**
 * The client library in about ten lines, for one client key: what a developer pastes into
 * an app to read its settings and variants and hear of each publish.
 */
import { CLIENT_IMPORT, jsLiteral as literal, SNIPPET_UNIT } from '../../lib/client-code';

export { absoluteBaseUrl, CLIENT_IMPORT, SNIPPET_UNIT } from '../../lib/client-code';

/** Placeholders where the live config has nothing to name. */
export const SNIPPET_APP_PLACEHOLDER = 'your-app-id';
export const SNIPPET_TEST_PLACEHOLDER = 'your-test-id';

export interface SnippetInput {
  /** The API base URL the console talks to (the client adds `/api/v1` only when it is absent). */
  readonly baseUrl: string;
  readonly clientKey: string;
  readonly app: string | undefined;
  readonly test: string | undefined;
}

export function clientSnippet({ baseUrl, clientKey, app, test }: SnippetInput): string {
  return [
    `import { createClient } from ${literal(CLIENT_IMPORT)};`,
    '',
    'const client = createClient({',
    `  baseUrl: ${literal(baseUrl)},`,
    `  clientKey: ${literal(clientKey)},`,
    `  app: ${literal(app ?? SNIPPET_APP_PLACEHOLDER)},`,
    '});',
    'await client.ready();',
    `const unit = ${literal(SNIPPET_UNIT)}; // a user or device id`,
    'console.log(client.settings(unit));',
    `console.log(client.variant(${literal(test ?? SNIPPET_TEST_PLACEHOLDER)}, unit));`,
    '// Each publish that changes the app reaches the listener.',
    'client.subscribe(() => console.log(client.settings(unit)));',
  ].join('\n');
}
