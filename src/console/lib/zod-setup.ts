/**
 * Imported first by the entry point: the server's Content-Security-Policy forbids eval, and
 * zod 4 would otherwise probe `new Function` (a CSP violation report in the console) and
 * compile object parsers with it. Jitless parsing is plain JavaScript.
 */
import { z } from '../../contract/zod';

z.config({ jitless: true });
