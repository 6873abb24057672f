import { z } from './zod';

/**
 * A point in time as ISO 8601 text. This server writes UTC (`2026-12-22T10:00:00.000Z`);
 * clients also accept an offset, since the seed leaves the format open.
 */
export const timestampSchema = () => z.iso.datetime({ offset: true });
