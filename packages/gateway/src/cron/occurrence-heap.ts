/** One entry of the heap: a job's next occurrence. */
export interface HeapEntry {
  at: number;
  jobId: string;
  /** Matches the job's current version, else the entry is stale and dropped when it surfaces. */
  version: number;
}

/**
 * A binary min-heap of next occurrences ordered by time: the scheduler keeps one timer, for the
 * top, whatever the number of jobs. Changed or removed jobs leave stale entries that are skipped
 * (lazy deletion), so every operation is O(log n).
 */
export class OccurrenceHeap {
  readonly #items: HeapEntry[] = [];

  get size(): number {
    return this.#items.length;
  }

  peek(): HeapEntry | undefined {
    return this.#items[0];
  }

  push(entry: HeapEntry): void {
    const items = this.#items;
    items.push(entry);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if ((items[parent] as HeapEntry).at <= entry.at) break;
      items[index] = items[parent] as HeapEntry;
      index = parent;
    }
    items[index] = entry;
  }

  pop(): HeapEntry | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && (items[right] as HeapEntry).at < (items[left] as HeapEntry).at ? right : left;
      if ((items[child] as HeapEntry).at >= last.at) break;
      items[index] = items[child] as HeapEntry;
      index = child;
    }
    items[index] = last;
    return top;
  }

  clear(): void {
    this.#items.length = 0;
  }
}
