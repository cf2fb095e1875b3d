/** What ranking looks at in a tool: its name, its description and its parameter names. */
export interface RankableTool {
  name: string;
  description: string;
  /** Parameter names, nested ones included (e.g. from the input's JSON Schema). */
  parameters: readonly string[];
}

/** A tool that matched, with its score (higher is better). */
export interface RankedTool<T extends RankableTool> {
  tool: T;
  score: number;
}

/** The ranking of a query, or why it could not be ranked. */
export type RankToolsResult<T extends RankableTool> =
  | { ok: true; terms: string[]; matches: RankedTool<T>[] }
  | { ok: false; error: string };

/** Weights of one query word matching a word of each part; a name match counts most. */
export const RANK_WEIGHTS = {
  exactName: 1000,
  nameWord: 10,
  namePrefix: 5,
  parameterWord: 4,
  parameterPrefix: 2,
  descriptionWord: 2,
  descriptionPrefix: 1,
} as const;

const STOP_WORDS = new Set(['a', 'an', 'and', 'the', 'to', 'of', 'for', 'in', 'on', 'or', 'with', 'is', 'it']);

/**
 * The lower-case words of a name or text: `mcp__github__create_issue`, `createIssue` and
 * `create-issue` all give their parts as separate words.
 */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** The distinct words of a query worth matching (stop words left out unless nothing else is left). */
export function queryTerms(query: string): string[] {
  const words = [...new Set(splitWords(query))];
  const meaningful = words.filter((word) => !STOP_WORDS.has(word));
  return meaningful.length > 0 ? meaningful : words;
}

function wordScore(term: string, words: ReadonlySet<string>, exact: number, prefix: number): number {
  if (words.has(term)) return exact;
  if (term.length < 3) return 0;
  for (const word of words) if (word.startsWith(term)) return prefix;
  return 0;
}

/** The score of one tool for the given query terms; 0 means no match. */
export function scoreTool(tool: RankableTool, query: string, terms: readonly string[]): number {
  const nameWords = new Set(splitWords(tool.name));
  const parameterWords = new Set(tool.parameters.flatMap(splitWords));
  const descriptionWords = new Set(splitWords(tool.description));
  const compactName = tool.name.toLowerCase().replace(/[^a-z0-9]/g, '');
  let score = query.trim().toLowerCase() === tool.name.toLowerCase() ? RANK_WEIGHTS.exactName : 0;
  for (const term of terms) {
    let name = wordScore(term, nameWords, RANK_WEIGHTS.nameWord, RANK_WEIGHTS.namePrefix);
    if (name === 0 && term.length >= 3 && compactName.includes(term)) name = RANK_WEIGHTS.namePrefix;
    score +=
      name +
      wordScore(term, parameterWords, RANK_WEIGHTS.parameterWord, RANK_WEIGHTS.parameterPrefix) +
      wordScore(term, descriptionWords, RANK_WEIGHTS.descriptionWord, RANK_WEIGHTS.descriptionPrefix);
  }
  return score;
}

/**
 * Ranks tools against a keyword query: an exact name first, then by words matched in names (highest
 * weight), parameter names and descriptions. Tools that match nothing are left out; equal scores
 * keep the input order. Pure, so tools-manager and tests can use it directly.
 *
 * @example
 * const ranked = rankTools([{ name: 'read_file', description: 'Read a file.', parameters: ['path'] }], 'read');
 * // { ok: true, terms: ['read'], matches: [{ tool: ..., score: 12 }] }
 */
export function rankTools<T extends RankableTool>(tools: readonly T[], query: string): RankToolsResult<T> {
  const terms = queryTerms(query);
  if (terms.length === 0) {
    return {
      ok: false,
      error: 'The query has no words to search for: give keywords such as "github issue" or "read file".',
    };
  }
  const matches = tools
    .map((tool, index) => ({ tool, index, score: scoreTool(tool, query, terms) }))
    .filter((match) => match.score > 0)
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .map(({ tool, score }) => ({ tool, score }));
  return { ok: true, terms, matches };
}
