import type { Candidate } from './candidate.js';
import { generateTextCandidate, streamTextCandidate } from './candidates/ai-sdk.js';
import { baselineCandidate } from './candidates/baseline.js';
import { boxagntsCandidate } from './candidates/boxagnts.js';
import { openaiAgentsCandidate } from './candidates/openai-agents.js';
import { piAgentCoreCandidate } from './candidates/pi-agent-core.js';

/** Every candidate, in table order: the baseline first (every ratio needs it), then ours, then the peers. */
export const CANDIDATES: readonly Candidate[] = [
  baselineCandidate,
  boxagntsCandidate(true),
  boxagntsCandidate(false),
  boxagntsCandidate(true, true),
  piAgentCoreCandidate,
  generateTextCandidate,
  openaiAgentsCandidate,
  streamTextCandidate,
];
