import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { z } from '../../contract/zod';
import { apiKeyEndpoints } from '../../contract/api-key-endpoints';
import { problemOf } from '../../contract/problem';
import { ApiProblem } from '../lib/api-client';
import { Form, FormCheckboxField, FormTextField } from './form';
import { placeServerErrors, trimmedText } from './form-rules';
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

describe('the shared field rules', () => {
  it('trims text, says when it is empty (if required) or too long', () => {
    const name = trimmedText(5, 'Enter a name.');
    expect(name.parse('  Ada ')).toBe('Ada');
    expect(name.safeParse('   ').error?.issues.map((issue) => issue.message)).toEqual([
      'Enter a name.',
    ]);
    expect(trimmedText(5).safeParse('').success).toBe(true);
    expect(trimmedText(5).safeParse('abcdef').error?.issues[0]?.message).toBe(
      'Use at most 5 characters.',
    );
  });

  it("puts the server's errors on the fields it names, and says when it could not", () => {
    const setError = vi.fn();
    const problem = (errors: { path: string; message: string }[]) =>
      new ApiProblem(
        apiKeyEndpoints.createApiKey,
        problemOf('invalid_request', 'Invalid', { errors }),
      );
    const fields = { '/name': 'name' } as const;
    expect(
      placeServerErrors(problem([{ path: '/name', message: 'Taken.' }]), fields, setError),
    ).toBe(true);
    expect(setError).toHaveBeenCalledWith('name', { message: 'Taken.' });
    expect(placeServerErrors(problem([{ path: '/other', message: 'No.' }]), fields, setError)).toBe(
      false,
    );
    expect(placeServerErrors(new Error('offline'), fields, setError)).toBe(false);
    expect(setError).toHaveBeenCalledOnce();
  });
});
