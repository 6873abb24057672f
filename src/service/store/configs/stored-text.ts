/**
 * Config text and history operations as they rest in the database: brotli at quality 5,
 * which keeps a 10,000-app config near 3% of its text and inflates it in about a millisecond
 * (docs/operations.md, Stored text). Rows written before compression keep their plain text
 * until they are written again or converted in the background; both read alike.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

const QUALITY = 5;
/** A history entry shorter than this is kept as is: packing it would save little. */
export const PACK_FROM_BYTES = 1024;
/** The texts packed or unpacked lately, both ways, bounded by their total length. */
const MEMO_CHARS = 32 * 1024 * 1024;

/**
 * Packed bytes by text and text by packed bytes, newest last: a publish packs again the
 * text of the draft it just read, an edit's unit of work unpacks the row it read a moment
 * before; neither pays twice. Keyed by content, so a hit is always right.
 */
const packedOf = new Map<string, Buffer>();
const textOf = new Map<string, string>();
let memoChars = 0;

function remember(text: string, packed: Buffer): void {
  if (text.length > MEMO_CHARS / 4) return;
  // Another writer's bytes for a known text (an older brotli): one entry per text stays.
  const earlier = packedOf.get(text);
  if (earlier) {
    packedOf.delete(text);
    textOf.delete(earlier.toString('latin1'));
    memoChars -= text.length;
  }
  packedOf.set(text, packed);
  textOf.set(packed.toString('latin1'), text);
  memoChars += text.length;
  for (const [oldest, bytes] of packedOf) {
    if (memoChars <= MEMO_CHARS) break;
    packedOf.delete(oldest);
    textOf.delete(bytes.toString('latin1'));
    memoChars -= oldest.length;
  }
}

/** The bytes stored for `text`: UTF-8, brotli-compressed. */
export function packText(text: string): Buffer {
  const known = packedOf.get(text);
  if (known) return known;
  const bytes = Buffer.from(text, 'utf8');
  const packed = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  remember(text, packed);
  return packed;
}

/** The text of stored bytes (a Buffer from better-sqlite3 and pg alike). */
export function unpackText(packed: Uint8Array): string {
  const bytes = Buffer.isBuffer(packed) ? packed : Buffer.from(packed);
  const key = bytes.toString('latin1');
  const known = textOf.get(key);
  if (known !== undefined) return known;
  const text = brotliDecompressSync(bytes).toString('utf8');
  remember(text, bytes);
  return text;
}

/** A column pair's text: the packed bytes when there are some, else the plain text. */
export function storedText(plain: unknown, packed: unknown): string {
  return packed instanceof Uint8Array ? unpackText(packed) : (plain as string);
}

/**
 * The pair to store for a config's `text`: always packed, beside an empty text, so that only
 * rows written before compression have yaml_packed NULL (what the background conversion finds).
 */
export function textColumns(text: string): { plain: string; packed: Buffer } {
  return { plain: '', packed: packText(text) };
}
