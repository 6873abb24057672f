import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { z } from '../../contract/zod';
import { Form, FormCheckboxField, FormTextField } from './form';
import '../testing/test-utils';

const schema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Enter a name.')),
  remember: z.boolean(),
});

function renderForm(onSubmit: (values: z.output<typeof schema>) => void) {
  render(
    <Form schema={schema} defaultValues={{ name: '', remember: false }} onSubmit={onSubmit}>
      <FormTextField name="name" label="Name" hint="What people call it." />
      <FormCheckboxField name="remember" label="Remember" />
      <button type="submit">Save</button>
    </Form>,
  );
  return userEvent.setup();
}

describe('the form wrapper', () => {
  it('puts the schema’s message beside its field and does not submit', async () => {
    const onSubmit = vi.fn();
    const user = renderForm(onSubmit);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const field = await screen.findByRole('textbox', { name: 'Name' });
    await vi.waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const described = (field.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(['What people call it.', 'Enter a name.']);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the values as the schema parses them', async () => {
    const onSubmit = vi.fn();
    const user = renderForm(onSubmit);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), '  Ada  ');
    await user.click(screen.getByRole('checkbox', { name: 'Remember' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ name: 'Ada', remember: true });
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBeNull();
  });
});
