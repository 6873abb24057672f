/**
 * The console's one form: react-hook-form checked by a zod schema. The submit handler gets
 * the parsed values; the fields below take their registration and error from the form, so
 * every error sits beside its field (aria-describedby) the same way.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { ComponentProps, ReactNode, RefObject } from 'react';
import {
  FormProvider,
  useForm,
  useFormContext,
  type DefaultValues,
  type FieldValues,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from '../../contract/zod';
import { Button } from './button';
import { CheckboxField, SelectField, TextAreaField, TextField } from './form-fields';
import { ErrorAlert } from './error-alert';

export type FormMethods<
  Input extends FieldValues,
  Output extends FieldValues = Input,
> = UseFormReturn<Input, unknown, Output>;

type FormProps<Input extends FieldValues, Output extends FieldValues> = Omit<
  ComponentProps<'form'>,
  'onSubmit' | 'children' | 'noValidate'
> & {
  /** Checks the values as typed and gives them parsed (trimmed, transformed) to onSubmit. */
  schema: z.ZodMiniType<Output, Input>;
  defaultValues: DefaultValues<Input>;
  /** Called with valid values only; `form` resets it or puts the server's errors on fields. */
  onSubmit: (values: Output, form: FormMethods<Input, Output>) => unknown;
  children: ReactNode | ((form: FormMethods<Input, Output>) => ReactNode);
};

export function Form<Input extends FieldValues, Output extends FieldValues = Input>({
  schema,
  defaultValues,
  onSubmit,
  children,
  className = 'form',
  ...formProps
}: FormProps<Input, Output>) {
  // A new schema on a later render is used from then on (its rules may read fresh data).
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(schema), defaultValues });
  return (
    <FormProvider {...form}>
      <form
        {...formProps}
        className={className}
        // The schema says what is wrong, in words, beside each field.
        noValidate
        onSubmit={form.handleSubmit((values) => onSubmit(values, form))}
      >
        {typeof children === 'function' ? children(form) : children}
      </form>
    </FormProvider>
  );
}

/** The registration and error message of the field `name` of the enclosing Form. */
function useField(name: string) {
  const { register, getFieldState, formState } = useFormContext();
  return { registration: register(name), error: getFieldState(name, formState).error?.message };
}

type Named<Props> = Omit<Props, 'name' | 'error' | 'onChange' | 'onBlur' | 'ref'> & {
  name: string;
};

export function FormTextField({
  name,
  inputRef,
  ...props
}: Named<ComponentProps<typeof TextField>> & {
  /** The input element too, e.g. to focus it. */
  inputRef?: RefObject<HTMLInputElement | null>;
}) {
  const { registration, error } = useField(name);
  return (
    <TextField
      {...props}
      error={error}
      {...registration}
      ref={(element) => {
        registration.ref(element);
        if (inputRef) inputRef.current = element;
      }}
    />
  );
}

/** A whole number from `min` to `max`, typed or stepped; the schema still reads it as text. */
export function FormWholeNumberField({
  min,
  max,
  ...props
}: Named<ComponentProps<typeof TextField>> & { min: number; max: number }) {
  return (
    <FormTextField
      {...props}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      step={1}
      className="field-narrow"
    />
  );
}

export function FormTextAreaField({ name, ...props }: Named<ComponentProps<typeof TextAreaField>>) {
  const { registration, error } = useField(name);
  return <TextAreaField {...props} error={error} {...registration} />;
}

export function FormSelectField({ name, ...props }: Named<ComponentProps<typeof SelectField>>) {
  const { registration, error } = useField(name);
  return <SelectField {...props} error={error} {...registration} />;
}

export function FormCheckboxField({ name, ...props }: Named<ComponentProps<typeof CheckboxField>>) {
  const { registration } = useField(name);
  return <CheckboxField {...props} {...registration} />;
}

/**
 * A form's last row: why the last submit failed (when it did, and no field took the blame),
 * then the submit button and any other buttons, such as Cancel.
 */
export function FormActions({
  failure,
  submitLabel,
  pending,
  children,
}: {
  failure: string | null | false;
  submitLabel: string;
  pending: boolean;
  children?: ReactNode;
}) {
  return (
    <>
      <ErrorAlert>{failure}</ErrorAlert>
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          {submitLabel}
        </Button>
        {children}
      </div>
    </>
  );
}
