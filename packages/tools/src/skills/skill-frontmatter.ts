import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** Lowercase letters, digits and single hyphens, not at either end (the Agent Skills rule). */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Argument names must work as `$name` and `{{name}}` placeholders. */
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const toolList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (typeof value === 'string' ? value.split(/[\s,]+/).filter((tool) => tool !== '') : value));

/**
 * The frontmatter of a `SKILL.md`: the Agent Skills fields (`name`, `description`, `license`,
 * `compatibility`, `allowed-tools`, `metadata`) and the BoxAgnts ones (`when_to_use`, `tools`,
 * `args`). Unknown keys are ignored; known keys must have the right types.
 *
 * @see https://agentskills.io/specification
 */
export const skillFrontmatterSchema = z.object({
  name: z
    .string()
    .max(64, 'must be at most 64 characters')
    .regex(SKILL_NAME, 'must use lowercase letters, digits and hyphens only, not starting or ending with a hyphen'),
  description: z.string().trim().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  when_to_use: z.string().optional(),
  license: z.string().optional(),
  compatibility: z.string().max(500, 'must be at most 500 characters').optional(),
  'allowed-tools': toolList.optional(),
  tools: toolList.optional(),
  metadata: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .transform((entries) => Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, String(value)])))
    .optional(),
  args: z
    .array(
      z.object({
        name: z.string().regex(ARGUMENT_NAME, 'must be a letter or "_" followed by letters, digits or "_"'),
        description: z.string().optional(),
        required: z.boolean().default(false),
        // BoxAgnts' `default:`, used when a call leaves the argument out (YAML may read it as a number or boolean).
        default: z
          .union([z.string(), z.number(), z.boolean()])
          .transform((value) => String(value))
          .optional(),
      }),
    )
    .optional(),
});

/** A validated frontmatter. */
export type SkillFrontmatter = z.output<typeof skillFrontmatterSchema>;

/** Where the frontmatter ends; `null` when the text does not (yet) hold a complete block. */
export interface FrontmatterSplit {
  yaml: string;
  body: string;
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /(?:^|\r?\n)---[ \t]*(?:\r?\n|$)/;

/** Does the text start with a frontmatter opening line (`---`)? */
export function startsWithFrontmatter(text: string): boolean {
  return OPENING.test(text);
}

/**
 * Splits `---\n<yaml>\n---\n<body>` into its YAML and its body; `null` when no closing `---` line
 * is found (or the text does not open with one).
 */
export function splitFrontmatter(text: string): FrontmatterSplit | null {
  const opening = OPENING.exec(text);
  if (opening === null) return null;
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (closing === null) return null;
  return { yaml: rest.slice(0, closing.index), body: rest.slice(closing.index + closing[0].length) };
}

/** The outcome of parsing a frontmatter block: the fields, or a message saying what is wrong. */
export type FrontmatterParse = { ok: true; frontmatter: SkillFrontmatter } | { ok: false; problem: string };

/** Parses and validates the YAML of a frontmatter block. Never throws. */
export function parseSkillFrontmatter(yaml: string): FrontmatterParse {
  let data: unknown;
  try {
    data = parseYaml(yaml);
  } catch (error) {
    return { ok: false, problem: `invalid YAML frontmatter: ${(error as Error).message.split('\n')[0]}` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, problem: 'the frontmatter must be a YAML mapping with at least "name" and "description"' };
  }
  const parsed = skillFrontmatterSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `"${issue.path.join('.') || '(frontmatter)'}" ${issue.message}`);
    return { ok: false, problem: `invalid frontmatter: ${issues.join('; ')}` };
  }
  return { ok: true, frontmatter: parsed.data };
}
