import { z } from './zod';

/**
 * A point in time as ISO 8601 text. This server writes UTC (`2026-12-22T10:00:00.000Z`);
 * clients also accept an offset, as other servers of this API may send one.
 */
export const timestampSchema = () => z.iso.datetime({ offset: true });
