/** JSON Pointers (RFC 6901): how issues, operations and applied paths name a place. */
import { toJsonPointer } from '../contract/problem';

export type PathSegment = string | number;

function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** ["apps", 0, "name"] -> "/apps/0/name"; [] -> "" (the whole document). */
export function toPointer(segments: readonly PathSegment[]): string {
  return toJsonPointer(segments);
}

/** "/apps/0/name" -> ["apps", "0", "name"]. The caller decides which tokens index lists. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON Pointer: ${pointer}`);
  return pointer.slice(1).split('/').map(unescapeToken);
}

/** A token that may index a list: "0", "17" (no sign, no leading zero). */
export function isArrayIndexToken(token: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(token);
}
