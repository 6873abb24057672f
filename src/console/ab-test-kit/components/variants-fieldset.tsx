/**
 * The variants of a test in a form: id, weight and setting overrides per variant, 2 to 10
 * of them, with the weights' total shown as the person types. Removing a variant leaves
 * the others' weights as they were (rows are keyed by field id, never by position).
 */
import { useId } from 'react';
import { useFieldArray, useFormContext, useWatch, type FieldErrors } from 'react-hook-form';
import type { AppContents } from '../../../configs';
import { MAX_VARIANTS, MIN_VARIANTS, WEIGHTS_TOTAL } from '../../../contract/config-document';
import { Button } from '../../components/button';
import { FormSelectField, FormTextField, FormWholeNumberField } from '../../components/form';
import { FieldError } from '../../components/form-fields';
import {
  evenWeights,
  ID_HINT,
  SETTING_TYPES,
  weightsTotal,
  type SettingType,
  type VariantRow,
} from '../form/variant-rows';

interface VariantsForm {
  variants: VariantRow[];
}

const TYPE_LABELS: Record<SettingType, string> = {
  text: 'Text',
  number: 'Number',
  boolean: 'True or false',
};

/** An error zod put on the list itself (count, total) rather than on one of its rows. */
function listErrorOf(errors: FieldErrors<VariantsForm>): string | undefined {
  const list = errors.variants;
  return list?.root?.message ?? list?.message;
}

interface VariantsFieldsetProps {
  /** The app the test runs in: its settings are suggested as override keys. */
  app: AppContents | undefined;
}

export function VariantsFieldset({ app }: VariantsFieldsetProps) {
  const {
    control,
    setValue,
    formState: { errors },
  } = useFormContext<VariantsForm>();
  const { fields, append, remove } = useFieldArray({ control, name: 'variants' });
  const rows = useWatch({ control, name: 'variants' });
  const total = weightsTotal(rows);
  const totalId = useId();
  const listError = listErrorOf(errors);
  const listErrorId = useId();
  const suggestionsId = useId();

  return (
    <fieldset className="variants" aria-describedby={`${totalId} ${listError ? listErrorId : ''}`}>
      <legend>Variants</legend>
      <p id={totalId} className={total === WEIGHTS_TOTAL ? 'weights-total' : 'weights-total off'}>
        <span aria-live="polite">
          Total weight: {total} of {WEIGHTS_TOTAL}
        </span>
      </p>
      <FieldError id={listErrorId} message={listError} />
      {app && (
        <datalist id={suggestionsId}>
          {Object.keys(app.settings).map((key) => (
            <option key={key} value={key} />
          ))}
        </datalist>
      )}
      <ol className="variant-list">
        {fields.map((field, index) => {
          const name = `Variant ${index + 1}`;
          return (
            <li key={field.id} className="variant">
              <div className="variant-fields">
                <FormTextField
                  label={`${name} id`}
                  hint={index === 0 ? ID_HINT : undefined}
                  autoComplete="off"
                  spellCheck={false}
                  name={`variants.${index}.id`}
                />
                <FormWholeNumberField
                  label={`${name} weight`}
                  min={0}
                  max={WEIGHTS_TOTAL}
                  name={`variants.${index}.weight`}
                />
                <Button
                  className="button-small"
                  aria-label={`Remove ${name.toLowerCase()}`}
                  disabled={fields.length <= MIN_VARIANTS}
                  onClick={() => remove(index)}
                >
                  Remove
                </Button>
              </div>
              <SettingRows
                variantIndex={index}
                variantName={name}
                app={app}
                suggestionsId={app ? suggestionsId : undefined}
              />
            </li>
          );
        })}
      </ol>
      <div className="form-actions">
        <Button
          disabled={fields.length >= MAX_VARIANTS}
          onClick={() => append({ id: '', weight: '0', settings: [] })}
        >
          Add variant
        </Button>
        <Button
          onClick={() =>
            evenWeights(fields.length).forEach((weight, index) =>
              setValue(`variants.${index}.weight`, weight, { shouldValidate: true }),
            )
          }
        >
          Split weights evenly
        </Button>
      </div>
    </fieldset>
  );
}

interface SettingRowsProps {
  variantIndex: number;
  variantName: string;
  app: AppContents | undefined;
  suggestionsId: string | undefined;
}

/** A variant's setting overrides: key, type and value rows. */
function SettingRows({ variantIndex, variantName, app, suggestionsId }: SettingRowsProps) {
  const { control } = useFormContext<VariantsForm>();
  const { fields, append, remove } = useFieldArray({
    control,
    name: `variants.${variantIndex}.settings`,
  });
  const rows = useWatch({ control, name: `variants.${variantIndex}.settings` });

  return (
    <div className="setting-rows">
      {fields.map((field, index) => {
        const key = rows[index]?.key.trim() ?? '';
        const unknownKey = app !== undefined && key !== '' && !(key in app.settings);
        const name = `${variantName} setting ${index + 1}`;
        return (
          <div key={field.id} className="setting-row">
            <FormTextField
              label={name}
              autoComplete="off"
              spellCheck={false}
              list={suggestionsId}
              hint={
                unknownKey ? `${app.id} has no setting “${key}”: the config will warn.` : undefined
              }
              name={`variants.${variantIndex}.settings.${index}.key`}
            />
            <FormSelectField
              label={`${name} type`}
              name={`variants.${variantIndex}.settings.${index}.type`}
            >
              {SETTING_TYPES.map((type) => (
                <option key={type} value={type}>
                  {TYPE_LABELS[type]}
                </option>
              ))}
            </FormSelectField>
            <FormTextField
              label={`${name} value`}
              autoComplete="off"
              name={`variants.${variantIndex}.settings.${index}.value`}
            />
            <Button
              className="button-small"
              aria-label={`Remove ${name.toLowerCase()}`}
              onClick={() => remove(index)}
            >
              Remove
            </Button>
          </div>
        );
      })}
      <Button className="button-small" onClick={() => append({ key: '', type: 'text', value: '' })}>
        Add a setting to {variantName.toLowerCase()}
      </Button>
    </div>
  );
}
