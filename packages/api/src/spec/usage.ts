/**
 * Token counts of one call. `input.total = noCache + cacheRead + cacheWrite` and
 * `output.total = text + reasoning`; fields a vendor does not report are 0.
 */
export interface Usage {
  input: { total: number; noCache: number; cacheRead: number; cacheWrite: number };
  output: { total: number; text: number; reasoning: number };
}

/** Unified reasons a message ended, the same for every vendor. */
export type UnifiedFinishReason =
  | 'stop'
  | 'length'
  | 'tool-calls'
  | 'content-filter'
  | 'refusal'
  | 'pause'
  | 'error'
  | 'other';

/** Why a message ended: the unified value to act on and the vendor's raw value to log. */
export interface FinishReason {
  unified: UnifiedFinishReason;
  raw: string | undefined;
}
