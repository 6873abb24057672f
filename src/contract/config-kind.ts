/** What config records and config edits both name: a config's kind and a summary's limit. */
import { z } from './zod';

export const MAX_SUMMARY_LENGTH = 200;

export const configKindSchema = z
  .enum(['draft', 'published'])
  .register(z.globalRegistry, { id: 'ConfigKind' });
export type ConfigKind = z.infer<typeof configKindSchema>;
