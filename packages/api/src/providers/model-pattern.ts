import type { ModelPattern } from './provider-entry.js';

/**
 * Whether `model` matches a {@link ModelPattern} (or any of a list): an exact id or a pattern with
 * `*` wildcards, compared without regard to case (vendors are inconsistent about it), or a regular
 * expression tested as written.
 *
 * @example
 * matchesModel('deepseek-reasoner*', 'deepseek-reasoner-0528'); // true
 * matchesModel([/^o\d/, 'gpt-5*'], 'o3-mini'); // true
 */
export function matchesModel(pattern: ModelPattern | readonly ModelPattern[], model: string): boolean {
  if (isPatternList(pattern)) return pattern.some((item) => matchesModel(item, model));
  if (pattern instanceof RegExp) {
    // A global or sticky expression keeps state between calls; test a stateless copy.
    return new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')).test(model);
  }
  if (!pattern.includes('*')) return pattern.toLowerCase() === model.toLowerCase();
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'i').test(model);
}

function isPatternList(pattern: ModelPattern | readonly ModelPattern[]): pattern is readonly ModelPattern[] {
  return Array.isArray(pattern);
}
