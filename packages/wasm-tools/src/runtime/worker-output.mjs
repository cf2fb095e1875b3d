// Bounded capture of guest output (stdout, stderr, result text): keeps the first and last halves
// of the budget and counts what was dropped in between. Plain JS for the worker process.

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The marker put where bytes were dropped. */
export function omittedMarker(count) {
  return `\n[... ${count} bytes omitted ...]\n`;
}

/** Collects bytes up to `limit`: the head is kept as written, the tail in a sliding window. */
export class OutputCapture {
  constructor(limit) {
    this.headLimit = Math.ceil(limit / 2);
    this.tailLimit = Math.floor(limit / 2);
    this.head = [];
    this.headSize = 0;
    this.tail = [];
    this.tailSize = 0;
    this.total = 0;
  }

  push(bytes) {
    const chunk = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    this.total += chunk.length;
    let rest = chunk;
    if (this.headSize < this.headLimit) {
      const take = Math.min(this.headLimit - this.headSize, rest.length);
      this.head.push(rest.slice(0, take));
      this.headSize += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailLimit === 0) return;
    if (rest.length >= this.tailLimit) {
      this.tail = [rest.slice(rest.length - this.tailLimit)];
      this.tailSize = this.tailLimit;
      return;
    }
    this.tail.push(rest.slice());
    this.tailSize += rest.length;
    while (this.tailSize - (this.tail[0]?.length ?? 0) >= this.tailLimit) {
      this.tailSize -= this.tail.shift().length;
    }
  }

  /** The captured text; `[... N bytes omitted ...]` in the middle when over the limit. */
  text() {
    const head = decoder.decode(concat(this.head, this.headSize));
    let tailBytes = concat(this.tail, this.tailSize);
    if (tailBytes.length > this.tailLimit) tailBytes = tailBytes.subarray(tailBytes.length - this.tailLimit);
    const omitted = this.total - this.headSize - tailBytes.length;
    const tail = decoder.decode(tailBytes);
    return omitted > 0 ? `${head}${omittedMarker(omitted)}${tail}` : `${head}${tail}`;
  }

  get size() {
    return this.total;
  }
}

function concat(chunks, size) {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk.subarray(0, Math.min(chunk.length, size - offset)), offset);
    offset += chunk.length;
    if (offset >= size) break;
  }
  return out;
}

/** Caps a string to `limit` UTF-8 bytes the same way (head + marker + tail). */
export function capText(text, limit) {
  if (text.length <= limit / 4) return text;
  const bytes = encoder.encode(text);
  if (bytes.length <= limit) return text;
  const capture = new OutputCapture(limit);
  capture.push(bytes);
  return capture.text();
}
