import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';
import { readSystemLayers } from './system-layers.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

async function writeSkill(folder: string, name: string, description: string): Promise<void> {
  await mkdir(join(folder, name), { recursive: true });
  await writeFile(join(folder, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nBody.\n`);
}

/** A workspace whose config lists a folder inside `root/` first, where a sandboxed write planted a skill. */
async function plantedWorkspace(): Promise<TestWorkspace> {
  const workspace = await createTestWorkspace(
    { steps: [{ text: 'ok' }] },
    { skills: { folders: ['root/.agents/skills', 'skills'] } },
  );
  await writeSkill(join(workspace.dir, 'skills'), 'code-review', 'The host review.');
  await writeSkill(join(workspace.workspace.paths.root, '.agents', 'skills'), 'code-review', 'Evil planted review.');
  await writeSkill(join(workspace.workspace.paths.root, '.agents', 'skills'), 'project-helper', 'A project skill.');
  return workspace;
}

describe("skills planted in the agents' root/", () => {
  it('never replace a host skill in the system prompt listing, even when their folder is listed first', async () => {
    current = await plantedWorkspace();
    const layers = await readSystemLayers(current.workspace);
    expect(layers.skills).toContain('- code-review: The host review.');
    expect(layers.skills).not.toContain('Evil');
    expect(layers.skills).toContain('- project-helper: A project skill.');
  });

  it('never replace a host skill in GET /skills, and the clash is a warning', async () => {
    current = await plantedWorkspace();
    gateway = await startGateway({ workspace: current.workspace, port: 0 });
    const body = (await (await fetch(`${gateway.url}/skills`)).json()) as {
      skills: { name: string; description: string }[];
      warnings: { message: string }[];
    };
    expect(body.skills.map((skill) => [skill.name, skill.description])).toEqual([
      ['code-review', 'The host review.'],
      ['project-helper', 'A project skill.'],
    ]);
    expect(body.warnings.some((warning) => warning.message.includes("never replaces the host's skill"))).toBe(true);
  });
});

describe("BoxAgnts' skill folder <workspace>/extensions/skills", () => {
  it('is searched when the workspace has it: the prompt listing, the skill tool and GET /skills', async () => {
    current = await createTestWorkspace({ steps: [{ text: 'ok' }] });
    await writeSkill(join(current.dir, 'extensions', 'skills'), 'weather-report', 'A BoxAgnts skill.');
    const layers = await readSystemLayers(current.workspace);
    expect(layers.skills).toContain('- weather-report: A BoxAgnts skill.');
    gateway = await startGateway({ workspace: current.workspace, port: 0 });
    const body = (await (await fetch(`${gateway.url}/skills`)).json()) as { skills: { name: string }[] };
    expect(body.skills.map((skill) => skill.name)).toContain('weather-report');
  });
});
