const MARKER = Symbol.for('boxagnts.query.TurnOutputLimitError');

/**
 * One model reply streamed more output than `config.maxTurnOutputChars` allows: the stream was
 * dropped and the run ended (outcome `error`, this as its `cause`), rather than hold it in memory.
 */
export class TurnOutputLimitError extends Error {
  readonly [MARKER] = true;
  override readonly name = 'TurnOutputLimitError';

  constructor(
    /** The cap in characters. */
    readonly limitChars: number,
    /** Characters received when the stream was dropped. */
    readonly receivedChars: number,
  ) {
    super(
      `output_limit: one model reply streamed more than ${limitChars} characters (text, thinking and tool ` +
        'arguments), so the stream was dropped and the run stopped. Ask for smaller replies, or raise ' +
        '`config.maxTurnOutputChars`.',
    );
  }
}

/** Whether `error` is a {@link TurnOutputLimitError}, across copies of the package. */
export function isTurnOutputLimitError(error: unknown): error is TurnOutputLimitError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
}
