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
/** The texts a store packed or unpacked lately, both ways, bounded by their total length. */
export const MEMO_CHARS = 32 * 1024 * 1024;

/** The bytes stored for `text`: UTF-8, brotli-compressed. */
export function packText(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

/** The text of stored bytes (a Buffer from better-sqlite3 and pg alike). */
export function unpackText(packed: Uint8Array): string {
  return brotliDecompressSync(packed).toString('utf8');
}

/** A column pair's text: the packed bytes when there are some, else the plain text. */
export function storedText(plain: unknown, packed: unknown): string {
  return packed instanceof Uint8Array ? unpackText(packed) : (plain as string);
}

/**
 * Packed bytes by text and text by packed bytes, newest last, one per store: a publish
 * packs again the text of the draft it just read, an edit's unit of work unpacks the row it
 * read a moment before; neither pays twice. Keyed by content, so a hit is always right.
 */
export class TextMemo {
  private readonly packedOf = new Map<string, Buffer>();
  private readonly textOf = new Map<string, string>();
  private total = 0;

  /** `maxChars`: the most text held; a text over a quarter of it is never held. */
  constructor(private readonly maxChars = MEMO_CHARS) {}

  /** The length of the texts held. */
  get chars(): number {
    return this.total;
  }

  knows(text: string): boolean {
    return this.packedOf.has(text);
  }

  /** packText, remembered. */
  pack(text: string): Buffer {
    const known = this.packedOf.get(text);
    if (known) return known;
    const packed = packText(text);
    this.remember(text, packed);
    return packed;
  }

  /** unpackText, remembered. */
  unpack(packed: Uint8Array): string {
    const bytes = Buffer.isBuffer(packed) ? packed : Buffer.from(packed);
    const known = this.textOf.get(bytes.toString('latin1'));
    if (known !== undefined) return known;
    const text = unpackText(bytes);
    this.remember(text, bytes);
    return text;
  }

  /** storedText, remembered. */
  storedText(plain: unknown, packed: unknown): string {
    return packed instanceof Uint8Array ? this.unpack(packed) : (plain as string);
  }

  /**
   * The pair to store for a config's `text`: always packed, beside an empty text, so that
   * only rows written before compression have yaml_packed NULL (what the background
   * conversion finds).
   */
  textColumns(text: string): { plain: string; packed: Buffer } {
    return { plain: '', packed: this.pack(text) };
  }

  private remember(text: string, packed: Buffer): void {
    if (text.length > this.maxChars / 4) return;
    // Another writer's bytes for a known text (an older brotli): one entry per text stays.
    const earlier = this.packedOf.get(text);
    if (earlier) this.forget(text, earlier);
    this.packedOf.set(text, packed);
    this.textOf.set(packed.toString('latin1'), text);
    this.total += text.length;
    for (const [oldest, bytes] of this.packedOf) {
      if (this.total <= this.maxChars) break;
      this.forget(oldest, bytes);
    }
  }

  private forget(text: string, packed: Buffer): void {
    this.packedOf.delete(text);
    this.textOf.delete(packed.toString('latin1'));
    this.total -= text.length;
  }
}
