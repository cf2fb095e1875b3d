import { ADAPTERS } from './adapters.js';
import type { Candidate } from './candidate.js';
import { fetchLowerBound, lowerBound } from './lower-bound.js';
import { anthropicSdk, openaiChatSdk, openaiResponsesSdk } from './sdk-candidates.js';

/** Everything the bench can measure; the lower bound first (every ratio is against it). */
export const CANDIDATES: readonly Candidate[] = [
  lowerBound,
  fetchLowerBound,
  anthropicSdk,
  openaiChatSdk,
  openaiResponsesSdk,
  ...ADAPTERS,
];
