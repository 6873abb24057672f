/**
 * Stands in for Prettier in monaco-yaml's worker (vite.config.ts aliases it). The console
 * turns monaco-yaml's formatting off: the person's formatting is theirs, and the server
 * keeps it. Without Prettier the worker is about 450 KB smaller.
 */
export async function format(text: string): Promise<string> {
  return text;
}
