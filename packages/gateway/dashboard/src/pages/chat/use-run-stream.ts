import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../api/http';
import { getRun, listRunQuestions, runEventsPath } from '../../api/runs';
import { readEventStream } from '../../api/sse';
import { applyRunEvent, emptyRunView, loadRunView, type RunView, saveRunView, userText } from './run-view';

/** Reconnect delays after a dropped stream: doubling from 0.5 s, at most 10 s. */
export function backoffMs(attempt: number): number {
  return Math.min(10_000, 500 * 2 ** Math.max(0, attempt - 1));
}

export interface RunStream {
  view: RunView | undefined;
  /** Set while the stream is down and a reconnect is waiting. */
  reconnecting: boolean;
  error: unknown;
}

/**
 * Follows one run's event stream into a {@link RunView}: from the view kept in this tab's
 * sessionStorage (resuming after its last event id), else from the first event. A dropped connection
 * reconnects with backoff from the last id seen; the stream ends after `run-end`.
 */
export function useRunStream(runId: string | undefined, onEnd: () => void): RunStream {
  const [view, setView] = useState<RunView | undefined>(undefined);
  const [reconnecting, setReconnecting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;

  useEffect(() => {
    if (runId === undefined) {
      setView(undefined);
      return;
    }
    const controller = new AbortController();
    const { signal } = controller;
    let current: RunView | undefined = loadRunView(runId);
    setView(current);
    setError(null);
    let flush: number | undefined;
    // Many deltas arrive per frame: render and store once per frame, not once per event.
    const publish = () => {
      if (flush !== undefined) return;
      flush = requestAnimationFrame(() => {
        flush = undefined;
        if (current === undefined || signal.aborted) return;
        setView(current);
        saveRunView(current);
      });
    };
    void (async () => {
      if (current === undefined) {
        const record = await getRun(runId, signal);
        const input = Array.isArray(record.input) ? (record.input[0] as { content?: unknown } | undefined) : undefined;
        current = emptyRunView(runId, record.status, input === undefined ? undefined : userText(input.content));
        publish();
      }
      for (let attempt = 0; !signal.aborted; ) {
        let ended = false;
        try {
          await readEventStream(runEventsPath(runId), {
            ...(current.lastEventId === undefined ? {} : { lastEventId: current.lastEventId }),
            signal,
            onEvent: (event) => {
              if (current === undefined) return;
              let data: Record<string, unknown> = {};
              try {
                data = JSON.parse(event.data) as Record<string, unknown>;
              } catch {
                // A comment or a malformed line: only the cursor moves.
              }
              current = applyRunEvent(current, event.event, data, event.id);
              if (event.event === 'run-end') ended = true;
              attempt = 0;
              setReconnecting(false);
              publish();
            },
          });
          if (ended) break;
          // The server ended the stream without run-end (a gateway restart): reconnect.
        } catch (failure) {
          if (signal.aborted) return;
          if (isApiError(failure) && failure.status < 500) {
            setError(failure);
            return;
          }
        }
        if (signal.aborted) return;
        if (!ended) {
          // Questions asked while we were away are replayed by the stream; a fresh list covers a gap.
          const open = await listRunQuestions(runId, signal).catch(() => undefined);
          if (open !== undefined && current !== undefined) current = { ...current, questions: open.questions };
        }
        attempt += 1;
        setReconnecting(true);
        await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
      }
      if (signal.aborted || current === undefined) return;
      setReconnecting(false);
      setView(current);
      saveRunView(current);
      onEndRef.current();
    })().catch((failure: unknown) => {
      if (!signal.aborted) setError(failure);
    });
    return () => {
      controller.abort();
      if (flush !== undefined) cancelAnimationFrame(flush);
    };
  }, [runId]);

  return { view, reconnecting, error };
}
