/**
 * Create a key: a name, permissions chosen from the caller's own (none chosen: the server
 * gives all of them), an optional expiry. The body is checked with the contract's
 * createApiKeyRequestSchema before it is sent; the secret then shows once.
 */
import { useId, useState } from 'react';
import { z } from '../../../../contract/zod';
import {
  API_KEY_MAX_EXPIRES_IN_DAYS,
  API_KEY_NAME_MAX_LENGTH,
  type CreateApiKeyRequest,
  type CreatedApiKey,
} from '../../../../contract/api-keys';
import type { Permission } from '../../../../contract/auth-status';
import { ShownOnce } from '../../../components/shown-once';
import {
  Form,
  FormActions,
  FormCheckboxField,
  type FormMethods,
  FormTextField,
  FormWholeNumberField,
} from '../../../components/form';
import { placeServerErrors, trimmedText } from '../../../components/form-rules';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { useCreateApiKey } from '../api/create-api-key';

const DAYS_MESSAGE = `Enter a whole number of days from 1 to ${API_KEY_MAX_EXPIRES_IN_DAYS}, or leave it empty.`;

const createApiKeyFormSchema = z.object({
  name: trimmedText(API_KEY_NAME_MAX_LENGTH, 'Enter a name for the key.'),
  grant: z.record(z.string(), z.boolean()),
  expiresInDays: z.string().check(
    z.trim(),
    z.refine(
      (text) =>
        text === '' ||
        (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= API_KEY_MAX_EXPIRES_IN_DAYS),
      DAYS_MESSAGE,
    ),
  ),
});

type CreateApiKeyFormInput = z.input<typeof createApiKeyFormSchema>;
type CreateApiKeyFormValues = z.output<typeof createApiKeyFormSchema>;

const FIELD_OF_PATH = { '/name': 'name', '/expires_in_days': 'expiresInDays' } as const;

export function CreateApiKeyForm({ permissions }: { permissions: readonly Permission[] }) {
  const titleId = useId();
  const permissionsHintId = useId();
  const create = useCreateApiKey();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const onSubmit = (
    values: CreateApiKeyFormValues,
    { reset, setError }: FormMethods<CreateApiKeyFormInput, CreateApiKeyFormValues>,
  ) => {
    setFailure(null);
    const chosen = permissions.filter((permission) => values.grant[permission] === true);
    const request: CreateApiKeyRequest = {
      name: values.name,
      ...(chosen.length > 0 ? { permissions: chosen } : {}),
      ...(values.expiresInDays !== '' ? { expires_in_days: Number(values.expiresInDays) } : {}),
    };
    create.mutate(request, {
      onSuccess: (key) => {
        // From here the answer is this screen's alone: the mutation cache lets go of it.
        create.reset();
        setCreated(key);
        reset();
        notify(`Created the key ${key.name}.`);
      },
      onError: (error) => {
        if (!placeServerErrors(error, FIELD_OF_PATH, setError)) {
          setFailure(`The key was not created. ${describeError(error)}`);
        }
      },
    });
  };

  return (
    <div className="create-key">
      <h3 id={titleId}>Create a key</h3>
      <Form
        schema={createApiKeyFormSchema}
        defaultValues={{ name: '', grant: {}, expiresInDays: '' }}
        onSubmit={onSubmit}
        aria-labelledby={titleId}
      >
        <FormTextField
          name="name"
          label="Name"
          autoComplete="off"
          maxLength={API_KEY_NAME_MAX_LENGTH}
        />
        <fieldset className="permissions" aria-describedby={permissionsHintId}>
          <legend>Permissions</legend>
          <p id={permissionsHintId} className="field-hint">
            The new key gets the permissions you check, from those of your key. None checked: all of
            them.
          </p>
          {permissions.map((permission) => (
            <FormCheckboxField
              key={permission}
              name={`grant.${permission}`}
              label={<code>{permission}</code>}
            />
          ))}
        </fieldset>
        <FormWholeNumberField
          name="expiresInDays"
          label="Expires in days"
          hint="Optional. Empty: the key never expires."
          min={1}
          max={API_KEY_MAX_EXPIRES_IN_DAYS}
        />
        <FormActions failure={failure} submitLabel="Create key" pending={create.isPending} />
      </Form>
      {created && (
        <ShownOnce
          intro={
            <>
              Created <strong>{created.name}</strong>.
            </>
          }
          label="New API key"
          value={created.secret}
          copyLabel="Copy key"
          copied="Key"
          warning="Copy this key now: it will not be shown again."
          onDone={() => setCreated(null)}
        />
      )}
    </div>
  );
}
