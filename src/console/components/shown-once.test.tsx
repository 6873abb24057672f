import { render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearNotices, useNotices } from '../lib/notices';
import { ShownOnce } from './shown-once';
import '../testing/test-utils';

afterEach(() => clearNotices());

/** A screen that holds the secret in its state, as the sections do. */
function Screen() {
  const [secret, setSecret] = useState<string | null>('whsec_once');
  return secret === null ? (
    <p>Nothing to show.</p>
  ) : (
    <ShownOnce
      intro="Added the webhook."
      label="Signing secret"
      value={secret}
      copyLabel="Copy secret"
      copied="Signing secret"
      warning="Copy this signing secret now: it will not be shown again."
      onDone={() => setSecret(null)}
    />
  );
}

describe('a value shown once', () => {
  it('shows the secret focused and selected, copies it, and is gone after Done', async () => {
    // user-event puts a clipboard of its own in place, to be read back.
    const user = userEvent.setup();
    render(<Screen />);

    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Signing secret' });
    expect(field.value).toBe('whsec_once');
    expect(field.readOnly).toBe(true);
    expect(document.activeElement).toBe(field);
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, 'whsec_once'.length]);
    expect(screen.getByText(/will not be shown again/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe('whsec_once');
    const notices = renderHook(() => useNotices()).result.current.map(({ text }) => text);
    expect(notices).toEqual(['Signing secret copied to the clipboard.']);

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).toBeNull();
    expect(screen.queryByDisplayValue('whsec_once')).toBeNull();
    expect(screen.getByText('Nothing to show.')).toBeTruthy();
  });
});
