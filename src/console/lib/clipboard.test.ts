import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyToClipboard } from './clipboard';
import { clearNotices, useNotices } from './notices';

afterEach(() => {
  vi.unstubAllGlobals();
  clearNotices();
});

function notices() {
  return renderHook(() => useNotices()).result.current.map(({ kind, text }) => ({ kind, text }));
}

describe('copyToClipboard', () => {
  it('copies and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await copyToClipboard('ck_x', 'Client key');
    expect(writeText).toHaveBeenCalledWith('ck_x');
    expect(notices()).toEqual([{ kind: 'success', text: 'Client key copied to the clipboard.' }]);
  });

  it('asks the person to copy it when the clipboard is refused or missing', async () => {
    const writeText = vi.fn(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await copyToClipboard('ck_x', 'Snippet');
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    await copyToClipboard('ck_x', 'Client key');
    expect(notices()).toEqual([
      { kind: 'error', text: 'Copying failed: select the snippet and copy it yourself.' },
      { kind: 'error', text: 'Copying failed: select the client key and copy it yourself.' },
    ]);
  });
});
