/** The Summary field of a save: required, at most MAX_SUMMARY_LENGTH characters. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { MAX_SUMMARY_LENGTH } from '../../../../contract/config-edit';
import { z } from '../../../../contract/zod';

const summarySchema = z.object({
  summary: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter a summary: say what the edit does.'),
      z.maxLength(MAX_SUMMARY_LENGTH, `Use at most ${MAX_SUMMARY_LENGTH} characters.`),
    ),
});
type SummaryInput = z.input<typeof summarySchema>;
type SummaryValues = z.output<typeof summarySchema>;

export function useSummaryForm() {
  const {
    register,
    trigger,
    getValues,
    setFocus,
    reset,
    formState: { errors },
  } = useForm<SummaryInput, unknown, SummaryValues>({
    resolver: zodResolver(summarySchema),
    defaultValues: { summary: '' },
  });
  return {
    field: register('summary'),
    error: errors.summary?.message,
    /** The trimmed summary; null (and the field says why, focused) when it is refused. */
    check: async (): Promise<string | null> => {
      if (await trigger('summary')) return getValues('summary').trim();
      setFocus('summary');
      return null;
    },
    clear: () => reset({ summary: '' }),
  };
}
