/** Keeps the first `cap` bytes pushed into it and counts the rest. */
export class CappedBytes {
  readonly cap: number;
  readonly #kept: Buffer[] = [];
  #keptBytes = 0;
  #total = 0;

  constructor(cap: number) {
    this.cap = cap;
  }

  push(bytes: Buffer): void {
    this.#total += bytes.length;
    const room = this.cap - this.#keptBytes;
    if (room <= 0) return;
    const kept = bytes.length <= room ? bytes : bytes.subarray(0, room);
    this.#kept.push(kept);
    this.#keptBytes += kept.length;
  }

  /** Every byte pushed, kept or not. */
  get total(): number {
    return this.#total;
  }

  get truncated(): boolean {
    return this.#total > this.#keptBytes;
  }

  /** The kept bytes. */
  bytes(): Buffer {
    return Buffer.concat(this.#kept);
  }

  /** The kept bytes as UTF-8 (a character cut at the cap becomes U+FFFD). */
  text(): string {
    return this.bytes().toString('utf8');
  }
}
