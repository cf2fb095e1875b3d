import { findModel } from '../catalogue/lookup.js';
import type { ThinkingConfig, ThinkingEffort } from '../spec/request.js';

/**
 * Which thinking form a Claude model takes:
 * - `budget`: only `{type: 'enabled', budget_tokens}` (Claude 4.5 and older: Sonnet 4.5, Opus 4.5,
 *   Haiku 4.5, Opus 4.1, Claude 4, 3.7): adaptive thinking is rejected;
 * - `adaptive`: both, adaptive preferred (Claude 4.6: Opus 4.6, Sonnet 4.6; budgets are deprecated);
 * - `adaptive-only`: only `{type: 'adaptive'}` with `output_config.effort` (Opus 4.7 and later,
 *   Claude 5): a budget is rejected.
 * - `unknown`: not a Claude id this can read (Anthropic-compatible servers' own models).
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/adaptive-thinking
 * @see https://docs.claude.com/en/docs/build-with-claude/extended-thinking
 */
export type ClaudeThinkingStyle = 'budget' | 'adaptive' | 'adaptive-only' | 'unknown';

/** Anthropic's smallest thinking budget (`budget_tokens` >= 1024). */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1_024;

/** Budgets an effort level becomes on models that take a budget only. */
export const CLAUDE_EFFORT_BUDGETS: Record<ThinkingEffort, number> = { low: 2_048, medium: 8_192, high: 24_576 };

/**
 * Reads the Claude version from a model id as given or as the catalogue names it (Bedrock
 * `us.anthropic.claude-opus-4-5-20251101-v1:0`, Vertex `claude-opus-4-5@20251101`, OpenRouter
 * `claude-opus-4.5`, `claude-3-7-sonnet-20250219`), and maps it to its thinking form.
 */
export function claudeThinkingStyle(modelId: string): ClaudeThinkingStyle {
  const version = claudeVersion(findModel(modelId)?.id ?? modelId) ?? claudeVersion(modelId);
  if (version === undefined) return 'unknown';
  const [major, minor] = version;
  if (major >= 5 || (major === 4 && minor >= 7)) return 'adaptive-only';
  if (major === 4 && minor === 6) return 'adaptive';
  return 'budget';
}

function claudeVersion(id: string): [number, number] | undefined {
  const lower = id.toLowerCase();
  // Family first: claude-opus-4-5, claude-sonnet-4.6, claude-opus-4-20250514 (a date is no minor).
  const familyFirst = /claude-(?:opus|sonnet|haiku)-(\d{1,2})(?:[-.](\d{1,2})(?!\d))?/.exec(lower);
  if (familyFirst !== null) return [Number(familyFirst[1]), Number(familyFirst[2] ?? 0)];
  // Version first: claude-3-7-sonnet, claude-3-5-haiku, claude-3-opus.
  const versionFirst = /claude-(\d)(?:[-.](\d))?-(?:opus|sonnet|haiku)/.exec(lower);
  if (versionFirst !== null) return [Number(versionFirst[1]), Number(versionFirst[2] ?? 0)];
  return undefined;
}

/** An effort level for a token budget, for models that take adaptive thinking only. */
export function effortForBudget(budgetTokens: number): ThinkingEffort {
  if (budgetTokens <= 4_096) return 'low';
  return budgetTokens <= 16_384 ? 'medium' : 'high';
}

/** The Claude thinking request for one model, before `max_tokens` is fitted around a budget. */
export type ClaudeThinkingRequest =
  | { type: 'budget'; budgetTokens: number }
  | { type: 'adaptive'; effort: ThinkingEffort }
  | { type: 'disabled' };

/**
 * Maps a {@link ThinkingConfig} to the form `modelId` accepts: an effort on a budget-only model
 * becomes a budget from {@link CLAUDE_EFFORT_BUDGETS}; a budget on an adaptive-only model becomes
 * adaptive thinking with the effort {@link effortForBudget} gives; budgets are raised to at least
 * {@link ANTHROPIC_MIN_THINKING_BUDGET}. Models whose version cannot be read are mapped as
 * `unknownStyle` says (default: the request's own form).
 */
export function claudeThinkingRequest(
  config: ThinkingConfig | undefined,
  modelId: string,
  unknownStyle: ClaudeThinkingStyle = 'unknown',
): ClaudeThinkingRequest | undefined {
  if (config === undefined) return undefined;
  if (config.type === 'disabled') return { type: 'disabled' };
  const read = claudeThinkingStyle(modelId);
  const style = read === 'unknown' ? unknownStyle : read;
  if (style === 'unknown') {
    return config.type === 'effort'
      ? { type: 'adaptive', effort: config.effort }
      : { type: 'budget', budgetTokens: Math.max(ANTHROPIC_MIN_THINKING_BUDGET, Math.floor(config.budgetTokens)) };
  }
  if (config.type === 'effort') {
    if (style === 'budget') return { type: 'budget', budgetTokens: CLAUDE_EFFORT_BUDGETS[config.effort] };
    return { type: 'adaptive', effort: config.effort };
  }
  if (style === 'adaptive-only') return { type: 'adaptive', effort: effortForBudget(config.budgetTokens) };
  return { type: 'budget', budgetTokens: Math.max(ANTHROPIC_MIN_THINKING_BUDGET, Math.floor(config.budgetTokens)) };
}
