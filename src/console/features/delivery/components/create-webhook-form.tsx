/**
 * Add a webhook: the URL that receives the events, which events, and a description. The
 * server judges the URL (https:, public addresses); its refusal is shown at the URL field.
 */
import { useId, useState } from 'react';
import {
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX_LENGTH,
  type CreatedWebhook,
  type CreateWebhookRequest,
} from '../../../../contract/webhooks';
import { z } from '../../../../contract/zod';
import {
  Form,
  FormActions,
  FormCheckboxField,
  type FormMethods,
  FormTextField,
} from '../../../components/form';
import { trimmedText } from '../../../components/form-rules';
import { FieldError } from '../../../components/form-fields';
import { ApiProblem, describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { useCreateWebhook } from '../api/create-webhook';
import { WEBHOOK_EVENT_LABELS } from '../webhook-events';

export const CHOOSE_AN_EVENT = 'Choose at least one event.';

function isWebUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

const createWebhookFormSchema = z.object({
  url: trimmedText(WEBHOOK_URL_MAX_LENGTH, 'Enter the URL that receives the events.').check(
    z.refine(isWebUrl, 'Enter a whole URL, starting with https://.'),
  ),
  // One checkbox per WEBHOOK_EVENTS entry, by index: the events' dots would nest as field names.
  events: z.array(z.boolean()).check(z.refine((chosen) => chosen.some(Boolean), CHOOSE_AN_EVENT)),
  description: trimmedText(WEBHOOK_DESCRIPTION_MAX_LENGTH),
});

type CreateWebhookFormInput = z.input<typeof createWebhookFormSchema>;
type CreateWebhookFormValues = z.output<typeof createWebhookFormSchema>;

/** The server's word on the URL, if its problem is about the URL; a sentence either way. */
export function urlRefusal(error: unknown): string | undefined {
  if (!(error instanceof ApiProblem) || error.status !== 400) return undefined;
  const field = error.errors.find((entry) => entry.path === '/url');
  const message = field?.message ?? (/\burl\b/i.test(error.detail) ? error.detail : undefined);
  if (message === undefined) return undefined;
  const sentence = /\burl\b/i.test(message) ? message : `The URL ${message}`;
  return sentence.endsWith('.') ? sentence : `${sentence}.`;
}

export function CreateWebhookForm({ onCreated }: { onCreated: (webhook: CreatedWebhook) => void }) {
  const titleId = useId();
  const eventsErrorId = useId();
  const create = useCreateWebhook();
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = (
    values: CreateWebhookFormValues,
    { reset, setError }: FormMethods<CreateWebhookFormInput, CreateWebhookFormValues>,
  ) => {
    setFailure(null);
    const request: CreateWebhookRequest = {
      url: values.url,
      events: WEBHOOK_EVENTS.filter((_, index) => values.events[index] === true),
      ...(values.description === '' ? {} : { description: values.description }),
    };
    create.mutate(request, {
      onSuccess: (webhook) => {
        // From here the answer is this screen's alone: the mutation cache lets go of it.
        create.reset();
        reset();
        notify(`Added the webhook to ${webhook.url}.`);
        onCreated(webhook);
      },
      onError: (error) => {
        const refusal = urlRefusal(error);
        if (refusal) setError('url', { message: refusal }, { shouldFocus: true });
        else setFailure(`The webhook was not added. ${describeError(error)}`);
      },
    });
  };

  return (
    <div className="create-key">
      <h3 id={titleId}>Add a webhook</h3>
      <Form
        schema={createWebhookFormSchema}
        defaultValues={{ url: '', events: WEBHOOK_EVENTS.map(() => false), description: '' }}
        onSubmit={onSubmit}
        aria-labelledby={titleId}
      >
        {(form) => {
          // The array's own rule (at least one): react-hook-form files it under `root`.
          const eventsState = form.getFieldState('events', form.formState).error;
          const eventsMessage: unknown = eventsState?.root?.message ?? eventsState?.message;
          const eventsError = typeof eventsMessage === 'string' ? eventsMessage : undefined;
          return (
            <>
              <FormTextField
                name="url"
                label="URL"
                hint="Where the events are sent, as a signed POST. It must start with https://."
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                maxLength={WEBHOOK_URL_MAX_LENGTH}
              />
              <fieldset
                className="permissions"
                aria-describedby={eventsError ? eventsErrorId : undefined}
              >
                <legend>Events</legend>
                {WEBHOOK_EVENTS.map((event, index) => (
                  <FormCheckboxField
                    key={event}
                    name={`events.${index}`}
                    label={
                      <>
                        {WEBHOOK_EVENT_LABELS[event]} <code>{event}</code>
                      </>
                    }
                  />
                ))}
                <FieldError id={eventsErrorId} message={eventsError} />
              </fieldset>
              <FormTextField
                name="description"
                label="Description (optional)"
                autoComplete="off"
                maxLength={WEBHOOK_DESCRIPTION_MAX_LENGTH}
              />
              <FormActions failure={failure} submitLabel="Add webhook" pending={create.isPending} />
            </>
          );
        }}
      </Form>
    </div>
  );
}
