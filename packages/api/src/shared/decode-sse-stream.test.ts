import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../spec/stream-event.js';
import { type BatchSource, START_BATCHES } from './batch-source.js';
import { decodeSseStream, type SseStreamDecoder } from './decode-sse-stream.js';
import { KEEP_ALIVE } from './stream-with-retries.js';

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

function text(delta: string): StreamEvent {
  return { type: 'text-delta', blockId: 't', delta };
}

/** A decoder that maps `data: <word>` to a text delta and `data: skip` to nothing. */
const words: SseStreamDecoder = {
  event: (_type, data, out) => {
    if (data !== 'skip') out.push(text(data));
  },
};

async function collect(source: AsyncIterable<readonly StreamEvent[]>): Promise<(readonly StreamEvent[])[]> {
  const batches: (readonly StreamEvent[])[] = [];
  for await (const batch of source) batches.push(batch);
  return batches;
}

describe('decodeSseStream', () => {
  it('yields one batch per chunk, the shared keep-alive for a chunk of frames without events, and nothing for half a frame', async () => {
    const batches = await collect(
      decodeSseStream(chunks('data: a\n\ndata: b\n\n', ': ping\n\n', 'data: skip\n\n', 'data: ha', 'lf\n\n'), words),
    );
    expect(batches).toEqual([[text('a'), text('b')], [], [], [text('half')]]);
    expect(batches[1]).toBe(KEEP_ALIVE);
    expect(batches[2]).toBe(KEEP_ALIVE);
  });

  it('calls end once after the last byte, and yields what it pushes (an unterminated event is dropped, as the SSE spec says)', async () => {
    let ends = 0;
    const batches = await collect(
      decodeSseStream(chunks('data: a\n\n', 'data: tail-without-blank-line'), {
        ...words,
        end: (out) => {
          ends += 1;
          out.push(text('end'));
        },
      }),
    );
    expect(ends).toBe(1);
    expect(batches).toEqual([[text('a')], [text('end')]]);
  });

  it('ends with the decoder error after the events before it, skips later events and does not call end', async () => {
    const seen: string[] = [];
    const failing: SseStreamDecoder = {
      event: (_type, data, out) => {
        seen.push(data);
        if (data === 'bad') throw new Error('not json');
        out.push(text(data));
      },
      end: () => seen.push('end'),
    };
    const batches: (readonly StreamEvent[])[] = [];
    const run = async () => {
      for await (const batch of decodeSseStream(
        chunks('data: a\n\n', 'data: b\n\ndata: bad\n\ndata: c\n\n', 'data: d\n\n'),
        failing,
      )) {
        batches.push(batch);
      }
    };
    await expect(run()).rejects.toThrow('not json');
    expect(batches).toEqual([[text('a')], [text('b')]]);
    expect(seen).toEqual(['a', 'b', 'bad']);
  });

  it('stops reading when the decoder says it has stopped', async () => {
    let reads = 0;
    async function* counted(): AsyncGenerator<string> {
      for (const part of ['data: a\n\n', 'data: stop\n\n', 'data: never\n\n']) {
        reads += 1;
        yield part;
      }
    }
    let stopped = false;
    const batches = await collect(
      decodeSseStream(counted(), {
        event: (_type, data, out) => {
          if (data === 'stop') stopped = true;
          else out.push(text(data));
        },
        end: (out) => out.push(text('end')),
        stopped: () => stopped,
      }),
    );
    expect(batches).toEqual([[text('a')], []]);
    expect(reads).toBe(2);
  });

  describe('pushed (what streamWithRetries starts)', () => {
    /** Starts the push path and records what reaches the sink, as `batch`, `end` or `fail:<message>`. */
    function push(source: BatchSource): Promise<(readonly StreamEvent[] | string)[]> {
      return new Promise((resolve) => {
        const seen: (readonly StreamEvent[] | string)[] = [];
        source[START_BATCHES]({
          batch: (batch) => seen.push(batch),
          end: () => resolve([...seen, 'end']),
          fail: (error) => resolve([...seen, `fail:${(error as Error).message}`]),
        });
      });
    }

    it('pushes the batches the pull path yields: one per chunk, keep-alives, the end', async () => {
      const seen = await push(
        decodeSseStream(chunks('data: a\n\ndata: b\n\n', ': ping\n\n', 'data: ha', 'lf\n\n'), {
          ...words,
          end: (out) => out.push(text('end')),
        }),
      );
      expect(seen).toEqual([[text('a'), text('b')], [], [text('half')], [text('end')], 'end']);
      expect(seen[1]).toBe(KEEP_ALIVE);
    });

    it('a decoder throw fails after the events before it; a stopped decoder ends without end()', async () => {
      const failing = await push(
        decodeSseStream(chunks('data: a\n\n', 'data: b\n\ndata: bad\n\ndata: c\n\n', 'data: d\n\n'), {
          event: (_type, data, out) => {
            if (data === 'bad') throw new Error('not json');
            out.push(text(data));
          },
        }),
      );
      expect(failing).toEqual([[text('a')], [text('b')], 'fail:not json']);
      let stopped = false;
      const stopping = await push(
        decodeSseStream(chunks('data: a\n\n', 'data: stop\n\n', 'data: never\n\n'), {
          event: (_type, data, out) => {
            if (data === 'stop') stopped = true;
            else out.push(text(data));
          },
          end: (out) => out.push(text('end')),
          stopped: () => stopped,
        }),
      );
      expect(stopping).toEqual([[text('a')], [], 'end']);
    });
  });
});
