/**
 * What the model is told after its reply was cut at the output limit: continue exactly where it
 * stopped, without apologising or repeating itself, and split what remains into smaller steps.
 */
export const MAX_TOKENS_RESUME_PROMPT =
  'Your last reply was cut off at the output token limit. Continue exactly where you stopped, mid-sentence if need be: ' +
  'no apology, no recap of what you already wrote. If a tool call was cut off, make it again in full. ' +
  'Split the remaining work into smaller pieces (shorter replies, smaller edits) so each fits.';
