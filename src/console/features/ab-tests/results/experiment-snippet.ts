/**
 * The client library's part in an A/B test, in a few lines: `variant()` logs the exposure,
 * `track()` the events metrics count. Shown where a test has no exposures yet.
 */
import { CLIENT_IMPORT, jsLiteral, SNIPPET_UNIT } from '../../../lib/client-code';

export const SNIPPET_CLIENT_KEY = 'your-client-key';
export const SNIPPET_EVENT = 'your-event';

export interface ExperimentSnippetInput {
  readonly baseUrl: string;
  readonly app: string | null;
  readonly test: string;
  /** A variant that is not the control, to show the branch on it. */
  readonly variant: string | undefined;
}

export function experimentSnippet({ baseUrl, app, test, variant }: ExperimentSnippetInput): string {
  return [
    `import { createClient } from ${jsLiteral(CLIENT_IMPORT)};`,
    '',
    'const client = createClient({',
    `  baseUrl: ${jsLiteral(baseUrl)},`,
    `  clientKey: ${jsLiteral(SNIPPET_CLIENT_KEY)}, // a client key of the Delivery page`,
    `  app: ${jsLiteral(app ?? 'your-app-id')},`,
    '});',
    'await client.ready();',
    `const unit = ${jsLiteral(SNIPPET_UNIT)}; // a user or device id`,
    '// Logs the exposure: call it where the unit meets the test.',
    `const variant = client.variant(${jsLiteral(test)}, unit);`,
    ...(variant === undefined ? [] : [`if (variant === ${jsLiteral(variant)}) { /* … */ }`]),
    '// When the unit does what a metric counts (the metric names the event):',
    `client.track(${jsLiteral(SNIPPET_EVENT)}, unit);`,
  ].join('\n');
}
