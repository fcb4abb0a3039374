import { isUtf8 } from 'node:buffer';

/** `byte 0xC3 at offset 17` for the first byte sequence that is not UTF-8, or undefined. */
export function firstBadUtf8(bytes: Buffer): string | undefined {
  if (isUtf8(bytes)) return undefined;
  const checker = new Utf8Checker();
  checker.push(bytes);
  checker.end();
  return checker.bad;
}

/**
 * Validates UTF-8 across chunk boundaries (a character may be split between two chunks) and
 * remembers where it first broke: `byte 0xC3 at offset 17`.
 */
export class Utf8Checker {
  bad: string | undefined;
  #offset = 0;
  /** Bytes of a character the last chunk ended inside. */
  #carry: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): void {
    if (this.bad !== undefined) return;
    const bytes = this.#carry.length > 0 ? Buffer.concat([this.#carry, chunk]) : chunk;
    const start = this.#offset - this.#carry.length;
    const cut = bytes.length - incompleteTail(bytes);
    const whole = bytes.subarray(0, cut);
    if (!isUtf8(whole)) {
      const at = firstInvalid(whole);
      this.bad = `byte 0x${whole[at]!.toString(16).toUpperCase().padStart(2, '0')} at offset ${start + at}`;
    }
    this.#carry = Buffer.from(bytes.subarray(cut));
    this.#offset += chunk.length;
  }

  /** The body ended: a character left incomplete is invalid too. */
  end(): void {
    if (this.bad === undefined && this.#carry.length > 0) {
      this.bad = `byte 0x${this.#carry[0]!.toString(16).toUpperCase().padStart(2, '0')} at offset ${this.#offset - this.#carry.length} (a character cut off by the end of the body)`;
    }
  }
}

/** Bytes at the end that start a multi-byte character not yet complete (0 to 3). */
function incompleteTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead
    const need = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xc2 && b <= 0xdf ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/** Offset of the first byte where `bytes` stops being UTF-8 (bytes is known not to be). */
function firstInvalid(bytes: Buffer): number {
  // Binary search on the longest valid prefix; a prefix cut inside a character is not valid either,
  // so step back over an incomplete tail before testing.
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const prefix = bytes.subarray(0, mid);
    if (isUtf8(prefix.subarray(0, mid - incompleteTail(prefix)))) lo = mid;
    else hi = mid - 1;
  }
  return lo - incompleteTail(bytes.subarray(0, lo));
}
