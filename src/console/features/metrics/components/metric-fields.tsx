/** A metric's fields, in the create form and the edit dialog (the id only when creating). */
import {
  MAX_EVENT_NAME_LENGTH,
  MAX_METRIC_NAME_LENGTH,
  MAX_WINDOW_HOURS,
  METRIC_KINDS,
} from '../../../../contract/experiments';
import {
  FormCheckboxField,
  FormSelectField,
  FormTextField,
  FormWholeNumberField,
} from '../../../components/form';
import { KIND_WORDS } from '../metric-form';

export function MetricFields({ withId }: { withId: boolean }) {
  return (
    <>
      {withId && (
        <FormTextField
          name="id"
          label="Id"
          hint={
            <>
              How A/B tests name it in their <code>metrics:</code> and <code>guardrails:</code>{' '}
              lists. Lowercase letters, digits and -.
            </>
          }
          autoComplete="off"
          spellCheck={false}
          maxLength={63}
        />
      )}
      <FormTextField
        name="name"
        label="Name"
        autoComplete="off"
        maxLength={MAX_METRIC_NAME_LENGTH}
      />
      <FormSelectField name="kind" label="Measures">
        {METRIC_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {KIND_WORDS[kind]}
          </option>
        ))}
      </FormSelectField>
      <FormTextField
        name="event"
        label="Event"
        hint={
          <>
            The event the app sends with <code>client.track(event, unit, value)</code>.
          </>
        }
        autoComplete="off"
        spellCheck={false}
        maxLength={MAX_EVENT_NAME_LENGTH}
      />
      <FormWholeNumberField
        name="window_hours"
        label="Window (hours)"
        hint="Only events from a unit’s first exposure until this many hours later count."
        min={1}
        max={MAX_WINDOW_HOURS}
      />
      <FormCheckboxField
        name="inverse"
        label="Lower is better"
        hint="For errors, latency and the like: a drop is the improvement."
      />
      <FormTextField
        name="cap"
        label="Cap (optional)"
        hint="A unit’s value above it counts as the cap, so outliers do not drown the rest."
        inputMode="decimal"
        autoComplete="off"
        className="field-narrow"
      />
    </>
  );
}
