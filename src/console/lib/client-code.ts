/** What every snippet of the client library shares: its import, a unit, literals, the URL. */

/** The client library as `npm run build:client` writes it: one ES module, no dependencies. */
export const CLIENT_IMPORT = './provisioning-client.js';
export const SNIPPET_UNIT = 'user-42';

/** A JavaScript string literal (ids and URLs may hold quotes). */
export function jsLiteral(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The API base URL as an app elsewhere must write it: absolute. */
export function absoluteBaseUrl(baseUrl: string, origin: string): string {
  return new URL(baseUrl, origin).href.replace(/\/+$/, '');
}
