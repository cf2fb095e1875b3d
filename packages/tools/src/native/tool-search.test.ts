import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { executeTool } from '../execute-tool.js';
import { testContext } from '../test/context.js';
import type { AnyTool } from '../tool.js';
import { resultText, textResult } from '../tool-results.js';
import { createToolSearchTool, type ToolSearchSource } from './tool-search.js';

function nativeTool(name: string, description: string, shape: z.ZodRawShape = {}): AnyTool {
  return defineTool({
    name,
    description,
    inputSchema: z.object(shape),
    permission: 'read-only',
    execute: async () => textResult(name),
  });
}

function mcpTool(server: string, tool: string, description: string, properties: string[]): AnyTool {
  return defineTool({
    name: `mcp__${server}__${tool}`,
    description,
    inputSchema: z.object({}).passthrough(),
    jsonSchema: {
      type: 'object',
      properties: Object.fromEntries(properties.map((property) => [property, { type: 'string' }])),
    },
    permission: 'network',
    deferred: true,
    execute: async () => textResult(tool),
  });
}

/** About 40 tools: native ones loaded, MCP ones deferred until `select:` loads them. */
function makeSource(options: { refuse?: string[] } = {}) {
  const tools: AnyTool[] = [
    nativeTool('read_file', 'Read a text file from the working root.\nSecond line is not shown.', {
      path: z.string(),
      offset: z.number().optional(),
    }),
    nativeTool('write_file', 'Write a text file, replacing it.', { path: z.string(), content: z.string() }),
    nativeTool('edit_file', 'Replace exact text in a file.', { path: z.string(), old_string: z.string() }),
    nativeTool('grep', 'Search file contents with a regular expression.', { pattern: z.string() }),
    nativeTool('glob', 'Find files by name pattern.', { pattern: z.string() }),
    nativeTool('bash', 'Run a shell command.', { command: z.string(), timeoutSeconds: z.number() }),
    nativeTool('web_fetch', 'Fetch a URL and return its text.', { url: z.string() }),
    nativeTool('task_list_write', 'Keep a task list.', {
      tasks: z.array(z.object({ content: z.string(), status: z.string() })),
    }),
    nativeTool('ask_user_question', 'Ask the user a question with choices.', { question: z.string() }),
    nativeTool('long_description', `Summarize ${'very '.repeat(60)}long text.`),
  ];
  for (let index = 1; index <= 10; index++) {
    tools.push(nativeTool(`helper_${index}`, `Helper number ${index} for chores.`, { input: z.string() }));
  }
  const servers = ['github', 'slack', 'jira', 'postgres'];
  const actions: Array<[string, string, string[]]> = [
    ['create_issue', 'Open a new issue.', ['owner', 'repo', 'title', 'body']],
    ['list_issues', 'List open issues.', ['owner', 'repo', 'state']],
    ['search', 'Search everything on the server.', ['query']],
    ['get_user', 'Look up a user profile.', ['username']],
    ['send_message', 'Post a message to a channel.', ['channel', 'text']],
  ];
  for (const server of servers) {
    for (const [action, description, properties] of actions) {
      tools.push(mcpTool(server, action, `${server}: ${description}`, properties));
    }
  }
  const loaded = new Set(tools.filter((tool) => tool.deferred !== true).map((tool) => tool.name));
  const loadCalls: string[][] = [];
  const source: ToolSearchSource = {
    list: () => tools,
    isLoaded: (name) => loaded.has(name),
    load: (names) => {
      loadCalls.push(names);
      const accepted = names.filter((name) => !(options.refuse ?? []).includes(name));
      for (const name of accepted) loaded.add(name);
      return accepted;
    },
  };
  const toolSearch = createToolSearchTool(source);
  tools.push(toolSearch);
  return { tools, loaded, loadCalls, toolSearch };
}

async function search(input: Record<string, unknown>, setup = makeSource()) {
  const result = await executeTool(setup.toolSearch, input, testContext());
  return { result, text: resultText(result), setup };
}

describe('tool_search', () => {
  it('holds about 40 tools, MCP ones deferred', () => {
    const { tools, loaded } = makeSource();
    expect(tools).toHaveLength(41);
    expect(loaded.size).toBe(20);
  });

  it('lists ranked matches with a one-line description and whether each is loaded', async () => {
    const { result, text } = await search({ query: 'github issue' });
    expect(result.isError).toBeUndefined();
    expect(text.split('\n').slice(0, 3)).toEqual([
      '11 tools match "github issue" (showing 5):',
      '- mcp__github__create_issue (not loaded): github: Open a new issue.',
      '- mcp__github__list_issues (not loaded): github: List open issues.',
    ]);
    expect(text).toMatch(/Load a tool that is not loaded with "select:<name>" before calling it\.$/);
    expect(result.metadata?.total).toBe(11);
  });

  it('finds tools by parameter names from zod and from an MCP JSON Schema', async () => {
    const zodParameter = await search({ query: 'old string' });
    expect(zodParameter.text).toContain('- edit_file (loaded): Replace exact text in a file.');
    const nestedParameter = await search({ query: 'status', max_results: 1 });
    expect(nestedParameter.text).toContain('- task_list_write (loaded)');
    const camelParameter = await search({ query: 'timeout seconds', max_results: 1 });
    expect(camelParameter.text).toContain('- bash (loaded)');
    const mcpParameter = await search({ query: 'username', max_results: 10 });
    expect(mcpParameter.result.metadata?.matches).toEqual(
      servers().map((server) => ({ name: `mcp__${server}__get_user`, score: 4, loaded: false })),
    );
  });

  it('puts an exact name first and shows only the first line of descriptions, shortened', async () => {
    const exact = await search({ query: 'read_file', max_results: 1 });
    expect(exact.text).toBe(
      '5 tools match "read_file" (showing 1):\n- read_file (loaded): Read a text file from the working root.',
    );
    expect(exact.text).toContain('- read_file (loaded): Read a text file from the working root.');
    expect(exact.text).not.toContain('Second line');
    const long = await search({ query: 'long_description', max_results: 1 });
    const line = long.text.split('\n')[1] ?? '';
    expect(line.endsWith('…')).toBe(true);
    expect(line.length).toBeLessThan(200);
  });

  it('honours max_results and does not list itself', async () => {
    const { result } = await search({ query: 'helper', max_results: 3 });
    expect(result.metadata?.matches).toHaveLength(3);
    expect(result.metadata?.total).toBe(10);
    const self = await search({ query: 'tool_search' });
    expect(self.text).not.toContain('- tool_search');
  });

  it('says "1 tool matches" for a single match and leaves out the hint when all are loaded', async () => {
    const { text } = await search({ query: 'regular expression' });
    expect(text).toBe(
      '1 tool matches "regular expression":\n- grep (loaded): Search file contents with a regular expression.',
    );
  });

  it('says so when nothing matches', async () => {
    const { result, text } = await search({ query: 'kubernetes' });
    expect(result.isError).toBeUndefined();
    expect(text).toBe('No tools match "kubernetes" among 40 tools. Try other or fewer keywords.');
  });

  it('loads deferred tools with select: and reports loaded, already loaded and unknown names', async () => {
    const setup = makeSource();
    const { result, text } = await search(
      { query: 'select: mcp__slack__send_message, read_file,MCP__JIRA__SEARCH, nope' },
      setup,
    );
    expect(result.isError).toBeUndefined();
    expect(text).toBe(
      [
        'Loaded: mcp__slack__send_message, mcp__jira__search. You can call them now.',
        'Already loaded: read_file.',
        'Unknown: nope. Search by keywords to find the exact names.',
      ].join('\n'),
    );
    expect(setup.loadCalls).toEqual([['mcp__slack__send_message', 'mcp__jira__search']]);
    const after = await search({ query: 'slack message', max_results: 1 }, setup);
    expect(after.text).toContain('- mcp__slack__send_message (loaded)');
  });

  it('answers a select: that loads nothing with an error result', async () => {
    const unknown = await search({ query: 'select:nope,also_nope' });
    expect(unknown.result.isError).toBe(true);
    expect(unknown.text).toBe('Unknown: nope, also_nope. Search by keywords to find the exact names.');
    expect(unknown.setup.loadCalls).toEqual([]);
    const refused = await search(
      { query: 'select:mcp__github__search' },
      makeSource({ refuse: ['mcp__github__search'] }),
    );
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toBe('Could not load: mcp__github__search.');
    const empty = await search({ query: 'select: , ' });
    expect(empty.result.isError).toBe(true);
    expect(empty.text).toMatch(/^Name the tools to load after "select:"/);
  });

  it('answers an empty query and invalid input with error results', async () => {
    const empty = await search({ query: '   ' });
    expect(empty.result.isError).toBe(true);
    expect(empty.text).toMatch(/no words to search for/);
    const missing = await search({});
    expect(missing.text).toContain('- query:');
    const tooMany = await search({ query: 'file', max_results: 26 });
    expect(tooMany.text).toContain('- max_results:');
    const zero = await search({ query: 'file', max_results: 0 });
    expect(zero.result.isError).toBe(true);
  });

  it('does not run when the run is already cancelled', async () => {
    const setup = makeSource();
    const controller = new AbortController();
    controller.abort();
    const result = await executeTool(
      setup.toolSearch,
      { query: 'select:mcp__github__search' },
      testContext({ signal: controller.signal }),
    );
    expect(result.isError).toBe(true);
    expect(setup.loadCalls).toEqual([]);
  });
});

function servers(): string[] {
  return ['github', 'slack', 'jira', 'postgres'];
}
