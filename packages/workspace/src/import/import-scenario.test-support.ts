// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the config keeps ${env:NAME} references as text.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { loadSkills } from '@boxagnts/tools';
import { expect, it } from 'vitest';
import { openWorkspace, verifySiteCredentials, workspaceSites } from '../index.js';
import type { StoreConfig, WorkspaceStore } from '../store/store-types.js';
import {
  FIXTURE_ANTHROPIC_KEY,
  FIXTURE_MCP_TOKEN,
  FIXTURE_SESSION_IDS,
  FIXTURE_SITE_PASSWORD,
  FIXTURE_TOGETHER_KEY,
  writeBoxAgntsWorkspace,
} from './boxagnts-fixture.test-support.js';
import { importBoxAgntsWorkspace } from './import-workspace.js';

/** Every file under a folder (relative), with its size: what a dry run must leave as it was. */
export async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const stat = await lstat(path);
      out.push(`${relative(dir, path)} ${entry.isDirectory() ? 'dir' : stat.size}`);
      if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(dir);
  return out.sort();
}

const ENV = { GITHUB_TOKEN: 'from-the-environment' };

/**
 * The import of the documented BoxAgnts workspace, run against one store: a dry run touches
 * nothing, the import brings everything over, a second import changes nothing.
 */
export function importScenario(openStore?: (config: StoreConfig) => Promise<WorkspaceStore>): void {
  const storeOption = openStore === undefined ? {} : { openStore };

  it('dry run lists every change and touches nothing; the import then brings settings, keys, AGENTS.md, skills, sessions, cron and sites; a second import changes nothing', async () => {
    const { dir, remove } = await writeBoxAgntsWorkspace();
    try {
      const before = await snapshot(dir);
      const dry = await importBoxAgntsWorkspace(dir, { dryRun: true, env: ENV, ...storeOption });
      expect(await snapshot(dir)).toEqual(before);
      expect(dry.dryRun).toBe(true);
      const planned = (kind: string) =>
        dry.items.filter((item) => item.kind === kind && item.action === 'create').map((item) => item.name);
      expect(planned('config')).toEqual(['boxagnts.json']);
      expect(planned('session').sort()).toEqual([...FIXTURE_SESSION_IDS].sort());
      expect(planned('secret').sort()).toEqual([
        'anthropic',
        'github-copilot',
        'github-copilot-oauth',
        'mcp-github-tools-LITERAL',
        'together',
      ]);
      expect(planned('skill')).toEqual(['current-weather']);
      expect(planned('cron')).toEqual([
        'c6b1a3f0-1d2e-4f5a-8b9c-0d1e2f3a4b5c',
        'c6b1a3f0-1d2e-4f5a-8b9c-0d1e2f3a4b5c log',
      ]);
      expect(planned('site')).toEqual(['blog']);
      expect(dry.items.find((item) => item.name === 'old')).toMatchObject({ kind: 'site', action: 'skipped' });
      expect(dry.missingVariables).toEqual(['TENANT']);

      const imported = await importBoxAgntsWorkspace(dir, { env: ENV, ...storeOption });
      expect(imported.failed).toEqual([]);
      expect(imported.ok).toBe(true);
      expect(imported.items.map(({ kind, name, action }) => ({ kind, name, action }))).toEqual(
        dry.items.map(({ kind, name, action }) => ({ kind, name, action })),
      );

      // The config: mapped ids, MCP servers with ${env:...}, the allowlist, style, prompts; no key in it.
      const configText = await readFile(join(dir, 'boxagnts.json'), 'utf8');
      for (const key of [FIXTURE_ANTHROPIC_KEY, FIXTURE_TOGETHER_KEY, FIXTURE_MCP_TOKEN, 'ghr_refresh_canary_456']) {
        expect(configText).not.toContain(key);
      }
      const workspace = await openWorkspace(dir, { env: { ...ENV, TENANT: 'acme' }, ...storeOption });
      try {
        const config = workspace.config;
        expect(config.model).toBe('together/meta-llama/Llama-3.3-70B-Instruct-Turbo');
        expect(config.providers.together?.baseUrl).toBe('https://api.together.xyz/v1');
        expect(config.providers.zhipu?.region).toBe('international-coding');
        expect(Object.keys(config.providers)).not.toContain('no-such-vendor');
        expect(imported.notes.join('\n')).toContain('no-such-vendor is unknown here');
        const github = config.mcpServers['github-tools'];
        expect(github?.transport).toMatchObject({
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'mcp-github', '--token-env', 'from-the-environment'],
        });
        expect(configText).toContain('"env": "GITHUB_TOKEN"');
        expect(configText).toContain('"secret": "mcp-github-tools-LITERAL"');
        expect(configText).toContain('https://mcp.example.com/${env:TENANT}/mcp');
        expect(config.mcpServers.search?.transport).toMatchObject({
          type: 'http',
          url: 'https://mcp.example.com/acme/mcp',
        });
        expect(config.network.allowedHosts).toEqual(['https://wttr.in', 'api.github.com']);
        expect(config.permissions.mode).toBe('accept-edits');
        expect(config.permissions.deny).toEqual(['bash']);
        expect(config.outputStyle).toBe('concise');
        expect(config.agents.build?.prompt).toBe('You are the weather bot of ACME.');

        // Keys in the secrets file.
        expect((await workspace.secrets.get('anthropic'))?.reveal()).toBe(FIXTURE_ANTHROPIC_KEY);
        expect((await workspace.providerKey('together'))?.reveal()).toBe(FIXTURE_TOGETHER_KEY);
        expect((await workspace.secrets.get('github-copilot'))?.reveal()).toBe('ghr_refresh_canary_456');
        expect((await workspace.secrets.get('mcp-github-tools-LITERAL'))?.reveal()).toBe(FIXTURE_MCP_TOKEN);

        // AGENTS.md with BoxAgnts' text and the appended prompt.
        const agentsMd = (await workspace.agentsMd()).text;
        expect(agentsMd).toContain('The project mascot is a numbat.');
        expect(agentsMd).toContain('Always answer in metric units.');

        // Skills copied and loadable.
        const skills = await loadSkills({ folders: config.skills.folders });
        expect(skills.skills.map((skill) => skill.name)).toContain('current-weather');

        // Sessions: converted blocks, transcript blocks, times, usage; searchable.
        const [first, second] = FIXTURE_SESSION_IDS;
        const record = await workspace.store.sessions.get(first);
        expect(record).toMatchObject({
          title: 'Port change',
          createdAt: Date.parse('2026-05-01T08:30:00Z'),
          updatedAt: Date.parse('2026-05-01T08:31:15.250Z'),
          messageCount: 7,
        });
        const entries = await workspace.store.sessions.load(first);
        expect(entries[1]?.usage).toEqual({
          input: { total: 155, noCache: 100, cacheRead: 50, cacheWrite: 5 },
          output: { total: 20, text: 20, reasoning: 0 },
        });
        expect(entries[1]?.message.content).toEqual([
          { type: 'thinking', thinking: 'Read the file first.', signature: 'sig-1' },
          { type: 'tool_use', id: 'toolu_01', name: 'read', input: { file_path: 'config.toml' } },
        ]);
        expect(entries[2]?.message.content).toEqual([
          { type: 'tool_result', toolUseId: 'toolu_01', content: 'port = 8000' },
        ]);
        expect(entries[4]?.message.content).toEqual([
          {
            type: 'tool_result',
            toolUseId: 'toolu_02',
            content: [{ type: 'text', text: 'File not found: ../outside.txt' }],
            isError: true,
          },
        ]);
        expect(entries[6]?.message.content).toEqual([
          { type: 'user_local_command_output', command: 'cat config.toml', output: 'port = 8080' },
          { type: 'user_command', name: 'weather-forecast', args: 'Berlin' },
          { type: 'user_memory_input', key: 'units', value: 'metric' },
          { type: 'system_api_error', message: 'overloaded_error: capybara busy', retrySecs: 5 },
          {
            type: 'collapsed_read_search',
            toolName: 'glob',
            paths: ['src/a.ts', 'src/b.ts'],
            providerMetadata: { boxagnts: { nHidden: 3 } },
          },
          { type: 'task_assignment', id: 't1', subject: 'Check ports', description: 'Audit every listener' },
          { type: 'image', source: { type: 'base64', data: 'iVBORw0KGgo=', mediaType: 'image/png' } },
          {
            type: 'document',
            source: { type: 'base64', data: 'JVBERi0=', mediaType: 'application/pdf' },
            title: 'Manual',
            context: 'the wombat manual',
          },
        ]);
        const resumed = await workspace.store.sessions.resume(first);
        expect(resumed).toHaveLength(7);
        for (const word of ['quokka', 'capybara', 'wombat', 'Audit']) {
          const hits = await workspace.store.sessions.search(word);
          expect(
            hits.map((hit) => hit.sessionId),
            word,
          ).toEqual([first]);
        }
        expect((await workspace.store.sessions.get(second))?.title).toBe('What is the weather in Berlin?');
        expect((await workspace.store.sessions.load(second))[1]?.message.content).toEqual([
          { type: 'text', text: 'Sunny, 21 °C.' },
        ]);

        // Cron: BoxAgnts' six-field expression, timeout in seconds, mapped model.
        const job = await workspace.store.cron.get('c6b1a3f0-1d2e-4f5a-8b9c-0d1e2f3a4b5c');
        expect(job).toMatchObject({
          name: 'morning-weather',
          cron: '0 30 7 * * *',
          timeoutMs: 120_000,
          model: 'together/meta-llama/Llama-3.3-70B-Instruct-Turbo',
          enabled: true,
        });
        const [next] = await workspace.store.cron.nextRuns(job?.id ?? '', 1, {
          after: Date.parse('2026-06-01T00:00:00Z'),
        });
        expect(next?.iso).toBe('2026-06-01T07:30:00.000Z');
        const runs = await workspace.store.cron.runs(job?.id ?? '');
        expect(
          runs.map(({ scheduledFor, status, error, outcome }) => ({ scheduledFor, status, error, outcome })),
        ).toEqual([
          {
            scheduledFor: Date.parse('2026-05-02T07:30:00Z'),
            status: 'failed',
            error: 'provider timed out',
            outcome: 'error',
          },
          {
            scheduledFor: Date.parse('2026-05-01T07:30:00Z'),
            status: 'success',
            error: undefined,
            outcome: 'end_turn',
          },
        ]);

        // Sites: files under root/sites/blog, the login hashed in the secrets file.
        const sites = workspaceSites(workspace);
        expect((await sites.list()).map((site) => site.name)).toEqual(['blog']);
        expect(await readFile(join(dir, 'root', 'sites', 'blog', 'posts', 'one.html'), 'utf8')).toBe('<p>one</p>\n');
        const credentials = await sites.credentials('blog');
        expect(credentials !== undefined && credentials !== 'invalid').toBe(true);
        if (credentials !== undefined && credentials !== 'invalid') {
          expect(await verifySiteCredentials(credentials, 'alice', FIXTURE_SITE_PASSWORD)).toBe(true);
        }
        const secretsText = await readFile(join(dir, '.boxagnts', 'secrets.json'), 'utf8');
        expect(secretsText).not.toContain(FIXTURE_SITE_PASSWORD);
      } finally {
        await workspace.close();
      }

      // A second import changes nothing: no duplicate session, job or site; a dry run says so first.
      const afterFirst = await snapshot(dir);
      const dryAgain = await importBoxAgntsWorkspace(dir, { dryRun: true, env: ENV, ...storeOption });
      expect(dryAgain.items.filter((item) => item.action !== 'unchanged' && item.action !== 'skipped')).toEqual([]);
      expect(await snapshot(dir)).toEqual(afterFirst);
      const again = await importBoxAgntsWorkspace(dir, { env: ENV, ...storeOption });
      expect(again.failed).toEqual([]);
      expect(again.items.filter((item) => item.action !== 'unchanged' && item.action !== 'skipped')).toEqual([]);
      expect((await snapshot(dir)).filter((line) => !line.startsWith('.boxagnts/workspace.db'))).toEqual(
        afterFirst.filter((line) => !line.startsWith('.boxagnts/workspace.db')),
      );
      const reopened = await openWorkspace(dir, { env: { ...ENV, TENANT: 'acme' }, ...storeOption });
      try {
        expect((await reopened.store.sessions.list()).length).toBe(2);
        expect((await reopened.store.cron.list()).length).toBe(1);
        expect((await reopened.store.cron.runs('c6b1a3f0-1d2e-4f5a-8b9c-0d1e2f3a4b5c')).length).toBe(2);
        expect((await reopened.store.sessions.search('quokka')).length).toBe(1);
      } finally {
        await reopened.close();
      }
    } finally {
      await remove();
    }
  });
}
