/**
 * What `readBody` calls for a response body (and what a dispatched body calls directly); a throw
 * from `chunk` or `end` is passed to `error` and stops reading.
 */
export interface BodyHandlers {
  /** One network read; return `false` to stop reading at once (the body is then destroyed). */
  chunk(chunk: Uint8Array | string): boolean;
  end(): void;
  error(error: unknown): void;
}
