/**
 * Reading the `Link` header of a page (docs/api.md, Pages). Apart from pages.ts, which the
 * contract table (and so the console's first page) imports: only the readers of lists need it.
 */

/** The URL of the next page in a `Link` header; undefined when there is none. */
export function nextPageUrlOf(link: string | null | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel="?next"?\s*(;|$)/.test(match[2] ?? '')) return match[1];
  }
  return undefined;
}

/** The `cursor` a next-page URL carries (what a client sends back as `cursor`). */
export function cursorOfPageUrl(url: string): string | undefined {
  return new URL(url, 'http://page.invalid').searchParams.get('cursor') ?? undefined;
}
