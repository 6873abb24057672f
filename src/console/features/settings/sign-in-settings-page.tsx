/**
 * `/settings/sign-in` (members:manage): how long sessions last, whether passwords may be
 * used, and the organization's SSO connection. The client secret is write-only: the page
 * says whether one is set and offers a field to replace it.
 */
import { useState } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { ROLES } from '../../../contract/auth-status';
import {
  DEFAULT_ROLE_REFUSE,
  SESSION_IDLE_MINUTES,
  SESSION_MAX_HOURS,
  type OrganizationSettings,
} from '../../../contract/people';
import { Button } from '../../components/button';
import {
  Form,
  FormActions,
  FormCheckboxField,
  FormSelectField,
  FormTextField,
  FormWholeNumberField,
  type FormMethods,
} from '../../components/form';
import { placeServerErrors } from '../../components/form-rules';
import { ManagedSection } from '../../components/managed-section';
import { describeError } from '../../lib/api-client';
import { useAuthStatus } from '../../lib/auth';
import { notify } from '../../lib/notices';
import { usePageTitle } from '../../lib/page-title';
import { offers } from '../../lib/permissions';
import { useOrganizationSettings, useSetOrganizationSettings } from './api/people';
import { SettingsNav } from './settings-nav';
import {
  FIELD_OF_PATH,
  formValuesOf,
  signInSettingsFormSchema,
  updateOf,
  type SignInSettingsFormInput,
  type SignInSettingsFormValues,
} from './sign-in-settings/sign-in-settings-form';

export function SignInSettingsPage() {
  usePageTitle('Sign-in settings');
  const status = useAuthStatus();
  const canManage = status.data !== undefined && offers(status.data, 'members:manage');
  const settings = useOrganizationSettings({ enabled: canManage });
  return (
    <div className="page">
      <h1>Settings</h1>
      <SettingsNav status={status.data} />
      <ManagedSection
        title="Sign-in"
        allowed={canManage}
        notAllowed="Only an admin (members:manage) can change how people sign in."
        query={settings}
        loading="Loading the sign-in settings…"
        failure="The sign-in settings could not be loaded."
      >
        {(current) => (
          <SignInSettingsForm key={current.sso?.client_secret_set ? 1 : 0} current={current} />
        )}
      </ManagedSection>
    </div>
  );
}

function SignInSettingsForm({ current }: { current: OrganizationSettings }) {
  const save = useSetOrganizationSettings();
  const [failure, setFailure] = useState<string | null>(null);
  const secretSet = current.sso?.client_secret_set ?? false;

  const onSubmit = (
    values: SignInSettingsFormValues,
    form: FormMethods<SignInSettingsFormInput, SignInSettingsFormValues>,
  ) => {
    setFailure(null);
    if (values.ssoEnabled && !secretSet && values.clientSecret === '') {
      form.setError('clientSecret', { message: 'Enter the client secret.' });
      return;
    }
    save.mutate(updateOf(values), {
      onSuccess: (saved) => {
        form.reset(formValuesOf(saved));
        notify('The sign-in settings were saved.');
      },
      onError: (error) => {
        if (!placeServerErrors(error, FIELD_OF_PATH, form.setError)) {
          setFailure(`The sign-in settings were not saved. ${describeError(error)}`);
        }
      },
    });
  };

  return (
    <Form
      schema={signInSettingsFormSchema}
      defaultValues={formValuesOf(current)}
      onSubmit={onSubmit}
      aria-label="Sign-in settings"
    >
      <fieldset>
        <legend>Sessions</legend>
        <FormWholeNumberField
          name="idleMinutes"
          label="Idle minutes"
          hint={`A session ends after this long without activity (${SESSION_IDLE_MINUTES.min} to ${SESSION_IDLE_MINUTES.max}).`}
          min={SESSION_IDLE_MINUTES.min}
          max={SESSION_IDLE_MINUTES.max}
        />
        <FormWholeNumberField
          name="maxHours"
          label="Maximum hours"
          hint={`A session ends this long after signing in, whatever the activity (${SESSION_MAX_HOURS.min} to ${SESSION_MAX_HOURS.max}).`}
          min={SESSION_MAX_HOURS.min}
          max={SESSION_MAX_HOURS.max}
        />
        <FormCheckboxField
          name="passwordSignIn"
          label="People may sign in with a password"
          hint="Turned off, only SSO (and API keys) sign in."
        />
      </fieldset>
      <FormCheckboxField
        name="ssoEnabled"
        label="Sign in with an SSO connection (OpenID Connect)"
      />
      <SsoFields secretSet={secretSet} />
      <FormActions failure={failure} submitLabel="Save sign-in settings" pending={save.isPending} />
    </Form>
  );
}

function SsoFields({ secretSet }: { secretSet: boolean }) {
  const { control } = useFormContext<SignInSettingsFormInput>();
  const enabled = useWatch({ control, name: 'ssoEnabled' });
  const { fields, append, remove } = useFieldArray({ control, name: 'groupRoles' });
  if (!enabled) return null;
  return (
    <fieldset>
      <legend>SSO connection</legend>
      <FormTextField
        name="issuer"
        label="Issuer"
        type="url"
        spellCheck={false}
        autoComplete="off"
      />
      <FormTextField name="clientId" label="Client id" spellCheck={false} autoComplete="off" />
      <FormTextField
        name="clientSecret"
        label={secretSet ? 'Replace the client secret' : 'Client secret'}
        hint={
          secretSet
            ? 'A client secret is set. It is never shown; leave this empty to keep it.'
            : 'No client secret is set yet.'
        }
        type="password"
        autoComplete="new-password"
        spellCheck={false}
      />
      <FormTextField
        name="emailDomains"
        label="Email domains"
        hint="The work email domains it serves, separated by commas: Continue with SSO finds it by them."
        spellCheck={false}
        autoComplete="off"
      />
      <FormTextField
        name="groupsClaim"
        label="Groups claim"
        spellCheck={false}
        autoComplete="off"
      />
      <fieldset className="group-roles">
        <legend>Group roles</legend>
        <p className="field-hint">The strongest role of the groups a person is in applies.</p>
        {fields.map((field, index) => (
          <div key={field.id} className="group-role-row">
            <FormTextField
              name={`groupRoles.${index}.group`}
              label={`Group ${index + 1}`}
              autoComplete="off"
            />
            <FormSelectField name={`groupRoles.${index}.role`} label={`Role of group ${index + 1}`}>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </FormSelectField>
            <Button onClick={() => remove(index)} aria-label={`Remove group ${index + 1}`}>
              Remove
            </Button>
          </div>
        ))}
        <Button onClick={() => append({ group: '', role: 'viewer' })}>Add a group</Button>
      </fieldset>
      <FormSelectField name="defaultRole" label="Role of a person in no mapped group">
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
        <option value={DEFAULT_ROLE_REFUSE}>refuse: they may not sign in</option>
      </FormSelectField>
      <FormCheckboxField
        name="jit"
        label="People of these domains may join just-in-time"
        hint="Unchecked, only invited people and existing members sign in."
      />
    </fieldset>
  );
}
