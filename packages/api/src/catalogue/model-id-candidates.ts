// The spellings one model goes by across vendors, as pure string rules. Lookups try the candidates in
// order against each provider's ids and aliases; the first hit wins.
//
// Rules, each applied to every candidate found so far (breadth first, de-duplicated):
//  1. Vertex AI publisher ids: `claude-sonnet-4-5@20250929` -> `claude-sonnet-4-5-20250929`;
//     `name@default` / `name@latest` -> `name`.
//     https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude
//  2. Bedrock ids: a cross-region inference profile prefix (`us.`, `eu.`, `apac.`, `au.`, `jp.`, `ca.`,
//     `us-gov.`, `global.`) is dropped, then the vendor prefix (`anthropic.`, `meta.`, ...) and the
//     version suffix (`-v1:0`, `-v1`): `us.anthropic.claude-sonnet-4-5-20250929-v1:0` ->
//     `anthropic.claude-sonnet-4-5-20250929-v1:0` -> `claude-sonnet-4-5-20250929`.
//     https://docs.aws.amazon.com/bedrock/latest/userguide/inference-profiles-support.html
//  3. Claude versions written with a dot (OpenRouter style): `claude-sonnet-4.5` -> `claude-sonnet-4-5`.
//  4. A dated snapshot or `-latest` suffix is dropped: `claude-sonnet-4-5-20250929`, `...-2025-09-29`,
//     `...-latest` -> `claude-sonnet-4-5`.
//  5. A dated id also tries Vertex's spelling: `claude-sonnet-4-5-20250929` -> `claude-sonnet-4-5@20250929`.
//  6. An undated id also tries `-latest` and `@default`: `claude-3-5-haiku` -> `claude-3-5-haiku-latest`.
// Four-digit suffixes (`mistral-large-2411`, `gpt-4-0613`) are not treated as dates: they are too often
// part of a distinct model's name.

/** A dated snapshot (`-20250929`, `-2025-09-29`) or `-latest` at the end of a model id. */
export const SNAPSHOT_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

const VERTEX_DATED = /^(.+)@(\d{8})$/;
const VERTEX_DEFAULT = /^(.+)@(default|latest)$/;
const BEDROCK_REGION = /^(us|eu|apac|au|jp|ca|us-gov|global)\.(.+)$/;
const BEDROCK_VENDOR =
  /^(ai21|amazon|anthropic|cohere|deepseek|google|meta|minimax|mistral|moonshot|moonshotai|nvidia|openai|qwen|stability|twelvelabs|writer|zai)\.(.+)$/;
const BEDROCK_VERSION = /-v\d+(:\d+)?$/;
const CLAUDE_DOTTED = /^claude-.*\d\.\d/;
const DATED = /^(.+)-(\d{8})$/;
/** Most candidates one id expands to; the rules cannot loop, this only bounds odd input. */
const MAX_CANDIDATES = 16;

type Rule = (id: string) => string[];

function isBedrockId(id: string): boolean {
  const region = BEDROCK_REGION.exec(id);
  return BEDROCK_VENDOR.test(region?.[2] ?? id);
}

const RULES: readonly Rule[] = [
  (id) => {
    const dated = VERTEX_DATED.exec(id);
    if (dated) return [`${dated[1]}-${dated[2]}`];
    const undated = VERTEX_DEFAULT.exec(id);
    return undated?.[1] ? [undated[1]] : [];
  },
  (id) => {
    const region = BEDROCK_REGION.exec(id);
    if (region?.[2] && BEDROCK_VENDOR.test(region[2])) return [region[2]];
    const vendor = BEDROCK_VENDOR.exec(id);
    return vendor?.[2] ? [vendor[2].replace(BEDROCK_VERSION, '')] : [];
  },
  (id) => (CLAUDE_DOTTED.test(id) ? [id.replace(/(\d)\.(\d)/g, '$1-$2')] : []),
  (id) => {
    const base = id.replace(SNAPSHOT_SUFFIX, '');
    return base !== id && base.length > 0 ? [base] : [];
  },
  (id) => {
    const dated = DATED.exec(id);
    return dated ? [`${dated[1]}@${dated[2]}`] : [];
  },
  (id) => (SNAPSHOT_SUFFIX.test(id) || id.includes('@') || isBedrockId(id) ? [] : [`${id}-latest`, `${id}@default`]),
];

/**
 * The ids to try for `modelId`, most specific first: the id itself, then the spellings of the rules above.
 *
 * @example
 * modelIdCandidates('claude-sonnet-4-5-20250929');
 * // ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5', 'claude-sonnet-4-5@20250929', 'claude-sonnet-4-5-latest', 'claude-sonnet-4-5@default']
 */
export function modelIdCandidates(modelId: string): string[] {
  const candidates = [modelId];
  const seen = new Set(candidates);
  for (let index = 0; index < candidates.length && candidates.length < MAX_CANDIDATES; index += 1) {
    for (const rule of RULES) {
      for (const next of rule(candidates[index] as string)) {
        if (seen.has(next) || candidates.length >= MAX_CANDIDATES) continue;
        seen.add(next);
        candidates.push(next);
      }
    }
  }
  return candidates;
}

/**
 * The undated base a model id belongs to: every spelling rule applied, the snapshot dropped
 * (`us.anthropic.claude-sonnet-4-5-20250929-v1:0` and `claude-sonnet-4-5@20250929` -> `claude-sonnet-4-5`).
 * Lookups fall back to it to find a provider's snapshot of a model asked for by its undated name.
 */
export function modelIdBase(modelId: string): string {
  let current = modelId;
  for (;;) {
    const vertex = VERTEX_DATED.exec(current) ?? VERTEX_DEFAULT.exec(current);
    const region = BEDROCK_REGION.exec(current);
    const vendor = BEDROCK_VENDOR.exec(current);
    let next = current;
    if (vertex?.[1]) next = vertex[1];
    else if (region?.[2] && BEDROCK_VENDOR.test(region[2])) next = region[2];
    else if (vendor?.[2]) next = vendor[2].replace(BEDROCK_VERSION, '');
    else if (CLAUDE_DOTTED.test(current)) next = current.replace(/(\d)\.(\d)/g, '$1-$2');
    else if (SNAPSHOT_SUFFIX.test(current)) next = current.replace(SNAPSHOT_SUFFIX, '');
    if (next === current || next.length === 0) return current;
    current = next;
  }
}
