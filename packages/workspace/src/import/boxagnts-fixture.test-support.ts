// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BoxAgnts writes its own ${VAR} references.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A BoxAgnts workspace built from its documented formats (shared/fixtures/boxagnts/README.md and
// the shapes of its `workspace`, `core/types.rs`, `gateway/cron` and `gateway/site` modules).

/** The ids of the sessions the fixture writes. */
export const FIXTURE_SESSION_IDS = [
  '0b6f1d52-6a51-4a8e-9d5e-1c2f3a4b5c6d',
  '7e1d2c3b-4a59-4f68-8e7d-6c5b4a392817',
] as const;

/** An API key that must land in the secrets file and nowhere else. */
export const FIXTURE_ANTHROPIC_KEY = 'sk-ant-api03-boxagnts-import-canary-0123456789abcdef';
export const FIXTURE_TOGETHER_KEY = 'together-key-canary-fedcba9876543210';
export const FIXTURE_MCP_TOKEN = 'ghp_boxagntsImportCanaryToken0123456789';

export function fixtureSettings() {
  return {
    config: {
      model: 'together-ai/meta-llama/Llama-3.3-70B-Instruct-Turbo',
      permission_mode: 'acceptEdits',
      theme: 'dark',
      output_style: 'concise',
      auto_compact: true,
      compact_threshold: 0.8,
      verbose: false,
      output_format: 'text',
      mcp_servers: [
        {
          name: 'github_tools',
          command: 'npx',
          args: ['-y', 'mcp-github', '--token-env', '${GITHUB_TOKEN}'],
          env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', LITERAL: FIXTURE_MCP_TOKEN },
          url: null,
          type: 'stdio',
        },
        {
          name: 'search',
          command: null,
          args: [],
          env: {},
          url: 'https://mcp.example.com/${TENANT}/mcp',
          type: 'http',
        },
      ],
      allowed_tools: [],
      disallowed_tools: ['bash'],
      env: {},
      custom_system_prompt: 'You are the weather bot of ACME.',
      append_system_prompt: 'Always answer in metric units.',
      hooks: {},
      provider_configs: {
        'together-ai': {
          id: 'together-ai',
          name: 'Together',
          api_base: 'https://api.together.xyz/v1',
          enabled: true,
          models: [],
          options: {},
        },
        zai: { id: 'zai', name: 'Z.ai', api_base: null, enabled: true, models: [], options: {} },
        'no-such-vendor': {
          id: 'no-such-vendor',
          name: 'Nobody',
          api_base: 'https://nobody.example',
          enabled: true,
          models: [],
          options: {},
        },
      },
      allowed_outbound_hosts: ['https://wttr.in', 'api.github.com', 'not a host at all'],
    },
    base_url: 'http://127.0.0.1:3000',
    version: 1,
  };
}

export function fixtureAuth() {
  return {
    credentials: {
      anthropic: { type: 'api', key: FIXTURE_ANTHROPIC_KEY },
      'together-ai': { type: 'api', key: FIXTURE_TOGETHER_KEY },
      'github-copilot': {
        type: 'oauth',
        access: 'gho_access_canary_123',
        refresh: 'ghr_refresh_canary_456',
        expires: 1767225600000,
      },
    },
  };
}

export function fixtureSessions() {
  const [first, second] = FIXTURE_SESSION_IDS;
  return [
    {
      id: first,
      created_at: '2026-05-01T08:30:00Z',
      updated_at: '2026-05-01T10:31:15.250+02:00',
      model: 'anthropic/claude-sonnet-4-6',
      title: 'Port change',
      tags: ['config'],
      total_cost: 0.01,
      total_tokens: 1200,
      checkpoints: [],
      messages: [
        { role: 'user', content: 'Read config.toml and change the port to 8080' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Read the file first.', signature: 'sig-1' },
            { type: 'tool_use', id: 'toolu_01', name: 'read', input: { file_path: 'config.toml' } },
          ],
          cost: {
            input_tokens: 100,
            output_tokens: 20,
            cache_creation_input_tokens: 5,
            cache_read_input_tokens: 50,
            cost_usd: 0.001,
          },
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'port = 8000', is_error: false }],
        },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_02',
              name: 'edit',
              input: { file_path: '../outside.txt', old_string: 'a', new_string: 'b' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_02',
              content: [{ type: 'text', text: 'File not found: ../outside.txt' }],
              is_error: true,
            },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'The port changed from 8000 to 8080 (quokka).' }] },
        {
          role: 'user',
          content: [
            { type: 'user_local_command_output', command: 'cat config.toml', output: 'port = 8080' },
            { type: 'user_command', name: 'weather-forecast', args: 'Berlin' },
            { type: 'user_memory_input', key: 'units', value: 'metric' },
            { type: 'system_a_p_i_error', message: 'overloaded_error: capybara busy', retry_secs: 5 },
            { type: 'collapsed_read_search', tool_name: 'glob', paths: ['src/a.ts', 'src/b.ts'], n_hidden: 3 },
            { type: 'task_assignment', id: 't1', subject: 'Check ports', description: 'Audit every listener' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
              title: 'Manual',
              context: 'the wombat manual',
            },
          ],
        },
      ],
    },
    {
      id: second,
      created_at: '2026-05-02T10:00:00Z',
      updated_at: '2026-05-02T10:05:00Z',
      model: 'zai/glm-4.6',
      title: null,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is the weather in Berlin?' }] },
        { role: 'assistant', content: 'Sunny, 21 °C.' },
      ],
    },
  ];
}

export function fixtureCron() {
  return {
    'c6b1a3f0-1d2e-4f5a-8b9c-0d1e2f3a4b5c': {
      id: 'c6b1a3f0-1d2e-4f5a-8b9c-0d1e2f3a4b5c',
      name: 'morning-weather',
      description: 'Weather every morning',
      cron: '0 30 7 * * *',
      enabled: true,
      timeout: 120,
      model: 'together-ai/meta-llama/Llama-3.3-70B-Instruct-Turbo',
      prompt: 'Fetch the weather for Berlin',
    },
  };
}

export const FIXTURE_SITE_PASSWORD = 'correct horse battery staple';

export function fixtureSites() {
  return {
    's-1': {
      id: 's-1',
      name: 'blog',
      title: 'Blog',
      description: 'My blog',
      path: 'www/blog',
      component: 'boxed_static_server_component.wasm',
      entry_point: 'index.html',
      enable_auth: true,
      auth_user: 'alice',
      auth_pass: FIXTURE_SITE_PASSWORD,
      enabled: true,
    },
    's-2': {
      id: 's-2',
      name: 'old',
      title: 'Old',
      description: '',
      path: 'www/old',
      component: 'boxed_static_server_component.wasm',
      enabled: false,
    },
  };
}

/** Writes a BoxAgnts workspace into a new temporary folder and returns it (and its removal). */
export async function writeBoxAgntsWorkspace(
  options: { sessions?: unknown[] } = {},
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-rust-ws-'));
  const state = join(dir, '.boxagnts');
  await mkdir(join(state, 'sessions'), { recursive: true });
  await mkdir(join(state, 'cron-logs'), { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(join(state, 'settings.json'), json(fixtureSettings()));
  await writeFile(join(state, 'auth.json'), json(fixtureAuth()));
  await writeFile(join(state, 'AGENTS.md'), 'Answer briefly. The project mascot is a numbat.\n');
  for (const session of options.sessions ?? fixtureSessions()) {
    await writeFile(join(state, 'sessions', `${(session as { id: string }).id}.json`), json(session));
  }
  await writeFile(join(state, 'cron.config.json'), json(fixtureCron()));
  const jobId = Object.keys(fixtureCron())[0];
  const logLine = (at: string, success: boolean, message: string) =>
    JSON.stringify({ id: `log-${at}`, job_id: jobId, job_name: 'morning-weather', executed_at: at, success, message });
  await writeFile(
    join(state, 'cron-logs', `${jobId}.jsonl`),
    `${logLine('2026-05-01T07:30:00Z', true, 'Sunny')}\n${logLine('2026-05-02T07:30:00Z', false, 'provider timed out')}\nnot json\n`,
  );
  await writeFile(join(state, 'site.config.json'), json(fixtureSites()));
  await mkdir(join(dir, 'root', 'www', 'blog', 'posts'), { recursive: true });
  await writeFile(join(dir, 'root', 'www', 'blog', 'index.html'), '<h1>Blog</h1>\n');
  await writeFile(join(dir, 'root', 'www', 'blog', 'posts', 'one.html'), '<p>one</p>\n');
  await writeFile(join(dir, 'root', 'config.toml'), 'port = 8000\n');
  const skill = join(dir, 'extensions', 'skills', 'current-weather');
  await mkdir(skill, { recursive: true });
  await writeFile(
    join(skill, 'SKILL.md'),
    '---\nname: current-weather\ndescription: Tells the current weather of a city\n---\nFetch https://wttr.in/$1?format=3 and report it.\n',
  );
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
