/**
 * Create a client key: a name, and optionally the apps it may read, chosen from the live
 * config's (none chosen: every app, those added later included). The body is checked with
 * the contract's createClientKeyRequestSchema before it is sent.
 */
import { useId, useState } from 'react';
import type { AppContents } from '../../../../configs';
import {
  CLIENT_KEY_MAX_APPS,
  CLIENT_KEY_NAME_MAX_LENGTH,
  type ClientKey,
  type CreateClientKeyRequest,
} from '../../../../contract/delivery';
import { z } from '../../../../contract/zod';
import { Spinner } from '../../../components/spinner';
import {
  Form,
  FormActions,
  FormCheckboxField,
  type FormMethods,
  FormTextField,
} from '../../../components/form';
import { placeServerErrors, trimmedText } from '../../../components/form-rules';
import { FieldError } from '../../../components/form-fields';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { useCreateClientKey } from '../api/create-client-key';

const TOO_MANY_APPS = `Choose at most ${CLIENT_KEY_MAX_APPS} apps, or none for all of them.`;

const createClientKeyFormSchema = z.object({
  name: trimmedText(CLIENT_KEY_NAME_MAX_LENGTH, 'Enter a name for the key.'),
  scope: z
    .record(z.string(), z.boolean())
    .check(
      z.refine(
        (scope) => Object.values(scope).filter(Boolean).length <= CLIENT_KEY_MAX_APPS,
        TOO_MANY_APPS,
      ),
    ),
});

type CreateClientKeyFormInput = z.input<typeof createClientKeyFormSchema>;
type CreateClientKeyFormValues = z.output<typeof createClientKeyFormSchema>;

interface CreateClientKeyFormProps {
  /** The live config's apps: what a key may be scoped to; undefined while they load. */
  apps: readonly AppContents[] | undefined;
  onCreated: (key: ClientKey) => void;
}

export function CreateClientKeyForm({ apps, onCreated }: CreateClientKeyFormProps) {
  const titleId = useId();
  const appsHintId = useId();
  const appsErrorId = useId();
  const create = useCreateClientKey();
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = (
    values: CreateClientKeyFormValues,
    { reset, setError }: FormMethods<CreateClientKeyFormInput, CreateClientKeyFormValues>,
  ) => {
    setFailure(null);
    const chosen = (apps ?? []).map((app) => app.id).filter((id) => values.scope[id] === true);
    const request: CreateClientKeyRequest = {
      name: values.name,
      ...(chosen.length > 0 ? { apps: chosen } : {}),
    };
    create.mutate(request, {
      onSuccess: (key) => {
        // From here the answer is this screen's alone: the mutation cache lets go of it.
        create.reset();
        reset();
        notify(`Created the client key ${key.name}.`);
        onCreated(key);
      },
      onError: (error) => {
        if (!placeServerErrors(error, { '/name': 'name' }, setError)) {
          setFailure(`The client key was not created. ${describeError(error)}`);
        }
      },
    });
  };

  return (
    <div className="create-key">
      <h3 id={titleId}>Create a client key</h3>
      <Form
        schema={createClientKeyFormSchema}
        defaultValues={{ name: '', scope: {} }}
        onSubmit={onSubmit}
        aria-labelledby={titleId}
      >
        {(form) => {
          // The record's own rule (how many apps): its message, not a nested field's.
          const scopeMessage: unknown = form.getFieldState('scope', form.formState).error?.message;
          const appsError = typeof scopeMessage === 'string' ? scopeMessage : undefined;
          return (
            <>
              <FormTextField
                name="name"
                label="Name"
                autoComplete="off"
                maxLength={CLIENT_KEY_NAME_MAX_LENGTH}
              />
              <fieldset
                className="permissions"
                aria-describedby={[appsHintId, appsError ? appsErrorId : '']
                  .filter(Boolean)
                  .join(' ')}
              >
                <legend>Apps</legend>
                <p id={appsHintId} className="field-hint">
                  The key reads only the apps you check. None checked: all apps, those added later
                  included.
                </p>
                {apps === undefined ? (
                  <Spinner label="Loading the apps…" />
                ) : (
                  apps.length === 0 && <p>The live config has no apps yet.</p>
                )}
                {apps?.map((app) => (
                  <FormCheckboxField
                    key={app.id}
                    name={`scope.${app.id}`}
                    label={
                      <>
                        {app.name ?? app.id} <code>{app.id}</code>
                      </>
                    }
                  />
                ))}
                <FieldError id={appsErrorId} message={appsError} />
              </fieldset>
              <FormActions
                failure={failure}
                submitLabel="Create client key"
                pending={create.isPending}
              />
            </>
          );
        }}
      </Form>
    </div>
  );
}
