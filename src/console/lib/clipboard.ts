import { notify } from './notices';

/** Copies `text` and says so; where the clipboard is refused, says to copy it by hand. */
export async function copyToClipboard(text: string, what: string): Promise<void> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    notify(`${what} copied to the clipboard.`);
  } catch {
    notify(`Copying failed: select the ${what.toLowerCase()} and copy it yourself.`, 'error');
  }
}
