/**
 * The client library in about ten lines, for one client key: what a developer pastes into
 * an app to read its settings and variants and hear of each publish.
 */

/** The client library as `npm run build:client` writes it: one ES module, no dependencies. */
export const CLIENT_IMPORT = './provisioning-client.js';
/** Placeholders where the live config has nothing to name. */
export const SNIPPET_APP_PLACEHOLDER = 'your-app-id';
export const SNIPPET_TEST_PLACEHOLDER = 'your-test-id';
export const SNIPPET_UNIT = 'user-42';

export interface SnippetInput {
  /** The API base URL the console talks to (the client adds `/api/v1` only when it is absent). */
  readonly baseUrl: string;
  readonly clientKey: string;
  readonly app: string | undefined;
  readonly test: string | undefined;
}

/** A JavaScript string literal (ids and URLs may hold quotes). */
function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
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

/** The API base URL as an app elsewhere must write it: absolute. */
export function absoluteBaseUrl(baseUrl: string, origin: string): string {
  return new URL(baseUrl, origin).href.replace(/\/+$/, '');
}
