import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { textResult } from '../tool-results.js';

/** Shortest sleep, in seconds. */
export const SLEEP_MIN_SECONDS = 1;
/** Longest sleep, in seconds: longer waits belong to a scheduler, not a blocked turn. */
export const SLEEP_MAX_SECONDS = 300;

const inputSchema = z.object({
  seconds: z
    .number()
    .min(SLEEP_MIN_SECONDS, `Sleep at least ${SLEEP_MIN_SECONDS} second; for no wait, do not call sleep.`)
    .max(
      SLEEP_MAX_SECONDS,
      `Sleep at most ${SLEEP_MAX_SECONDS} seconds; to wait longer, call sleep again after checking progress.`,
    )
    .describe(
      `How long to wait, in seconds (${SLEEP_MIN_SECONDS} to ${SLEEP_MAX_SECONDS}; fractions allowed, e.g. 2.5).`,
    ),
  reason: z
    .string()
    .max(200)
    .optional()
    .describe('Why you are waiting, in a few words (shown to the user, e.g. "waiting for the dev server to start").'),
});

function formatSeconds(milliseconds: number): string {
  return `${Number((milliseconds / 1000).toFixed(1))} s`;
}

/**
 * Waits a bounded number of seconds, e.g. for a background process or a rate limit. Returns early
 * when the call is aborted, saying it was interrupted and how long it slept.
 */
export const sleepTool = defineTool({
  name: 'sleep',
  description: [
    `Wait for a number of seconds (${SLEEP_MIN_SECONDS} to ${SLEEP_MAX_SECONDS}) before continuing.`,
    'Use it when something outside your control needs time: a server starting, a background job or sub-agent',
    'finishing, a rate limit resetting. Do not use it to wait for a command you can run to completion, and prefer',
    'several short waits with checks in between over one long wait. The wait ends early if the run is cancelled.',
  ].join(' '),
  inputSchema,
  permission: 'read-only',
  execute: async ({ seconds, reason }, context) => {
    const requestedMs = Math.round(seconds * 1000);
    const started = Date.now();
    const interrupted = await new Promise<boolean>((resolve) => {
      if (context.signal.aborted) {
        resolve(true);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        context.signal.removeEventListener('abort', onAbort);
        resolve(false);
      }, requestedMs);
      context.signal.addEventListener('abort', onAbort, { once: true });
    });
    const sleptMs = Math.min(Date.now() - started, requestedMs);
    const metadata = { requestedMs, sleptMs, interrupted, ...(reason === undefined ? {} : { reason }) };
    if (interrupted) {
      return textResult(
        `Sleep interrupted after ${formatSeconds(sleptMs)} of ${formatSeconds(requestedMs)}: the call was aborted.`,
        metadata,
      );
    }
    return textResult(`Slept ${formatSeconds(requestedMs)}.`, metadata);
  },
});
