import type { SkillCatalogue, SkillSummary } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { catalogueFolders } from './catalogue-folders.js';

function skill(name: string, source: string): SkillSummary {
  return {
    name,
    description: name,
    allowedTools: [],
    args: [],
    metadata: {},
    directory: `${source}/${name}`,
    file: `${source}/${name}/SKILL.md`,
    source,
  };
}

describe('catalogueFolders', () => {
  it('puts an override winner before the folders it overrode, whatever the name order', () => {
    const catalogue: SkillCatalogue = {
      skills: [skill('alpha', '/global'), skill('zeta', '/project')],
      warnings: [],
      overrides: [{ name: 'zeta', used: '/project/zeta/SKILL.md', ignored: ['/global/zeta/SKILL.md'] }],
    };
    expect(catalogueFolders(catalogue)).toEqual(['/project', '/global']);
  });

  it('keeps first-seen order without overrides and lists folders only once', () => {
    const catalogue: SkillCatalogue = {
      skills: [skill('a', '/one'), skill('b', '/two'), skill('c', '/one')],
      warnings: [],
      overrides: [],
    };
    expect(catalogueFolders(catalogue)).toEqual(['/one', '/two']);
  });
});
