import { dirname } from 'node:path';
import type { SkillCatalogue } from '@boxagnts/tools';

/**
 * The search folders a loaded skill catalogue came from, most specific first: every folder that
 * gave a skill or an overridden copy, ordered so that each override's winning folder comes before
 * the folders it overrode (the catalogue lists skills by name, which loses the folders' order).
 */
export function catalogueFolders(catalogue: SkillCatalogue): string[] {
  const order: string[] = [];
  const see = (folder: string) => {
    if (!order.includes(folder)) order.push(folder);
  };
  const before = new Map<string, Set<string>>();
  for (const skill of catalogue.skills) see(skill.source);
  for (const override of catalogue.overrides) {
    const winner =
      catalogue.skills.find((skill) => skill.name === override.name)?.source ?? dirname(dirname(override.used));
    see(winner);
    for (const file of override.ignored) {
      const loser = dirname(dirname(file));
      see(loser);
      if (loser === winner) continue;
      const predecessors = before.get(loser) ?? new Set<string>();
      predecessors.add(winner);
      before.set(loser, predecessors);
    }
  }
  const sorted: string[] = [];
  const remaining = [...order];
  while (remaining.length > 0) {
    const index = remaining.findIndex((folder) =>
      [...(before.get(folder) ?? [])].every((predecessor) => sorted.includes(predecessor)),
    );
    // A cycle cannot come from one loadSkills run; should a hand-made catalogue have one, keep first-seen order.
    const [next] = remaining.splice(index === -1 ? 0 : index, 1);
    sorted.push(next!);
  }
  return sorted;
}
