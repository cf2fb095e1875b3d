import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeTool, loadSkills, resultText, type ToolContext } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nativeToolSource } from './native-tool-source.js';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'native-source-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function writeSkill(searchFolder: string, name: string, description: string, body: string): Promise<void> {
  await mkdir(join(searchFolder, name), { recursive: true });
  await writeFile(
    join(searchFolder, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n---\n${body}`,
  );
}

function context(): ToolContext {
  return { root: folder, signal: new AbortController().signal, sessionId: 's', turnId: 't', toolCallId: 'c' };
}

describe('nativeToolSource', () => {
  it('offers the native tools without skill or tool_search by default', async () => {
    const source = nativeToolSource();
    expect(source.name).toBe('native');
    expect(source.kind).toBe('native');
    expect((await source.load()).map((tool) => tool.name)).toEqual([
      'ask_user_question',
      'brief',
      'sleep',
      'enter_plan_mode',
      'exit_plan_mode',
      'agent',
      'agent_status',
    ]);
  });

  it('leaves out excluded tools', async () => {
    const tools = await nativeToolSource({ exclude: ['agent', 'agent_status', 'sleep'] }).load();
    expect(tools.map((tool) => tool.name)).toEqual(['ask_user_question', 'brief', 'enter_plan_mode', 'exit_plan_mode']);
  });

  it('adds a working skill tool over the given folders', async () => {
    const skills = join(folder, 'skills');
    await writeSkill(skills, 'release', 'How to cut a release.', 'Run the release checklist.');
    const tools = await nativeToolSource({ skills: { folders: [skills] } }).load();
    const skill = tools.find((tool) => tool.name === 'skill');
    expect(skill).toBeDefined();
    const result = await executeTool(skill!, { name: 'release' }, context());
    expect(resultText(result)).toContain('Run the release checklist.');
  });

  it("offers the skill tool under BoxAgnts' name skill-tool, taking BoxAgnts' {skill, args}", async () => {
    const skills = join(folder, 'skills');
    await writeSkill(skills, 'release', 'How to cut a release.', 'Release $ARGUMENTS now.');
    const tools = await nativeToolSource({ skills: { folders: [skills] }, skillToolName: 'skill-tool' }).load();
    expect(tools.map((tool) => tool.name)).toContain('skill-tool');
    expect(tools.map((tool) => tool.name)).not.toContain('skill');
    const skill = tools.find((tool) => tool.name === 'skill-tool');
    const result = await executeTool(skill!, { skill: 'release', args: 'v2.0' }, context());
    expect(resultText(result)).toContain('Release v2.0 now.');
  });

  it('searches a loaded catalogue in its own folder order, so overrides keep their winner', async () => {
    const project = join(folder, 'project');
    const global = join(folder, 'global');
    await writeSkill(global, 'alpha', 'Global alpha.', 'alpha from global');
    await writeSkill(project, 'zeta', 'Project zeta.', 'zeta from project');
    await writeSkill(global, 'zeta', 'Global zeta.', 'zeta from global');
    const catalogue = await loadSkills({ folders: [project, global] });
    expect(catalogue.overrides).toHaveLength(1);
    const tools = await nativeToolSource({ skills: catalogue }).load();
    const skill = tools.find((tool) => tool.name === 'skill')!;
    expect(resultText(await executeTool(skill, { name: 'zeta' }, context()))).toContain('zeta from project');
    expect(resultText(await executeTool(skill, { name: 'alpha' }, context()))).toContain('alpha from global');
  });

  it('passes brief options on to the brief tool', async () => {
    const briefs: string[] = [];
    const tools = await nativeToolSource({ brief: { onBrief: (brief) => void briefs.push(brief.message) } }).load();
    const brief = tools.find((tool) => tool.name === 'brief')!;
    await executeTool(brief, { message: 'Halfway there.' }, context());
    expect(briefs).toEqual(['Halfway there.']);
  });
});
