/**
 * Keeps the first and last bytes of a stream up to a budget, so a command that prints megabytes
 * costs bounded memory and the model still sees how the output began and how it ended (where
 * errors usually are). Everything in between is counted and replaced by one marker line.
 */
export class HeadTailBuffer {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #totalBytes = 0;

  /** @param maxBytes the most bytes kept: half from the start, half from the end. */
  constructor(maxBytes: number) {
    const budget = Math.max(2, Math.floor(maxBytes));
    this.#headLimit = Math.ceil(budget / 2);
    this.#tailLimit = budget - this.#headLimit;
  }

  /** Bytes seen so far, kept or not. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Whether some bytes were dropped. */
  get truncated(): boolean {
    return this.#totalBytes > this.#headBytes + this.#tailBytes;
  }

  /** Adds a chunk (a string is taken as UTF-8). */
  write(chunk: Buffer | string): void {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.#totalBytes += bytes.length;
    if (this.#headBytes < this.#headLimit) {
      const room = this.#headLimit - this.#headBytes;
      const taken = bytes.subarray(0, room);
      this.#head.push(Buffer.from(taken));
      this.#headBytes += taken.length;
      bytes = bytes.subarray(taken.length);
    }
    if (bytes.length === 0 || this.#tailLimit === 0) return;
    this.#tail.push(Buffer.from(bytes.subarray(Math.max(0, bytes.length - this.#tailLimit))));
    this.#tailBytes += Math.min(bytes.length, this.#tailLimit);
    if (this.#tailBytes > this.#tailLimit * 2) this.#compactTail();
  }

  #compactTail(): void {
    const joined = Buffer.concat(this.#tail);
    const kept = joined.subarray(Math.max(0, joined.length - this.#tailLimit));
    this.#tail = [Buffer.from(kept)];
    this.#tailBytes = kept.length;
  }

  /** The kept text: head, a marker saying how many bytes were left out, tail. */
  toString(): string {
    this.#compactTail();
    const head = Buffer.concat(this.#head).toString('utf8');
    const tail = Buffer.concat(this.#tail).toString('utf8');
    if (!this.truncated) return head + tail;
    const omitted = this.#totalBytes - this.#headBytes - this.#tailBytes;
    return `${head}\n[... ${omitted} bytes of output omitted ...]\n${tail}`;
  }
}

/** Caps `text` to about `maxBytes` UTF-8 bytes, keeping its start and end around a marker. */
export function capText(text: string, maxBytes: number): { text: string; truncated: boolean; totalBytes: number } {
  const buffer = new HeadTailBuffer(maxBytes);
  buffer.write(text);
  return { text: buffer.toString(), truncated: buffer.truncated, totalBytes: buffer.totalBytes };
}
