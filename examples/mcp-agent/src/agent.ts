import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAnthropicMessagesProvider } from '@boxagnts/api';
import { type QueryEvent, type QueryOutcome, runQuery } from '@boxagnts/query';
import { startMockServer } from '@boxagnts/testkit';
import { createMcpToolSource, createToolSet } from '@boxagnts/tools-manager';
import { mcpAgentScript } from './script.js';

const require = createRequire(import.meta.url);

/** The launcher of an installed MCP server package (its package.json `bin`), run with this Node. */
function packageBin(name: string): string {
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${name} has no bin entry; reinstall it.`);
  return join(dirname(manifestPath), bin);
}

/** Our own MCP server (the official SDK over stdio). */
export const TRACKER_SERVER = fileURLToPath(new URL('./tracker-server.mjs', import.meta.url));

/** The project's notes file the agent reads (its content, named TODO.md as such files are; not unfinished work). */
export const TODO_MD =
  '# Notes\n\n- [x] CSV export of the monthly report (#2)\n- [ ] dark mode (#1)\n- [ ] faster search (#3)\n';
export const ISSUES = [
  { id: 1, title: 'Dark mode', state: 'open' },
  { id: 2, title: 'CSV export of the monthly report', state: 'open' },
  { id: 3, title: 'Faster search', state: 'open' },
];

export interface McpAgentResult {
  outcome: QueryOutcome;
  /** The names of the tools the agent was offered. */
  toolNames: string[];
  /** The tracker's issues file after the run. */
  issues: Array<{ id: number; title: string; state: string; comment?: string }>;
  events: QueryEvent[];
  live: boolean;
}

/**
 * An agent whose tools all come from MCP servers started as child processes over stdio: the
 * published filesystem server (read-only tools only, confined to the project folder) and a small
 * tracker server of our own. Tools are named `mcp__<server>__<tool>`; their permission comes from
 * the servers' annotations, and closing an issue (a `write` tool) runs only because a rule allows it.
 */
export async function runMcpAgent(
  options: { live?: boolean; print?: (line: string) => void } = {},
): Promise<McpAgentResult> {
  const print = options.print ?? (() => undefined);
  const live = options.live ?? process.env.ANTHROPIC_API_KEY !== undefined;
  const base = await realpath(await mkdtemp(join(tmpdir(), 'boxagnts-mcp-agent-')));
  const project = join(base, 'project');
  const issuesFile = join(base, 'tracker', 'issues.json');
  await mkdir(project);
  await mkdir(dirname(issuesFile));
  await writeFile(join(project, 'TODO.md'), TODO_MD);
  await writeFile(issuesFile, `${JSON.stringify(ISSUES, null, 2)}\n`);
  const mock = live ? undefined : await startMockServer({ script: mcpAgentScript(project) });
  const provider = createAnthropicMessagesProvider(mock ? { baseURL: mock.url, apiKey: 'offline-not-secret' } : {});
  print(live ? 'model: Claude (ANTHROPIC_API_KEY is set)' : `model: the testkit at ${mock?.url}`);
  const files = createMcpToolSource({
    name: 'files',
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: [packageBin('@modelcontextprotocol/server-filesystem'), project],
    },
    allow: ['read_text_file', 'list_directory', 'search_files'],
  });
  const tracker = createMcpToolSource({
    name: 'tracker',
    transport: { type: 'stdio', command: process.execPath, args: [TRACKER_SERVER, issuesFile] },
  });
  const tools = await createToolSet({
    sources: [files, tracker],
    permissions: { rules: { allow: ['mcp__tracker__close_issue'] } },
  });
  try {
    const toolNames = tools.tools().map((tool) => tool.name);
    print(`tools from MCP servers: ${toolNames.join(', ')}`);
    const events: QueryEvent[] = [];
    const run = runQuery({
      provider,
      messages: [
        {
          role: 'user',
          content: `Read ${join(project, 'TODO.md')} and close every open tracker issue that the notes mark done, with a comment.`,
        },
      ],
      tools: () => tools.tools(),
      toolContext: { root: project, sessionId: 'mcp-agent' },
      config: { model: 'claude-sonnet-4-6', maxTurns: 10, budgetUsd: 0.5 },
    });
    let outcome: QueryOutcome;
    for (;;) {
      const next = await run.next();
      if (next.done) {
        outcome = next.value;
        break;
      }
      events.push(next.value);
      if (next.value.type === 'tool-start') print(`-> ${next.value.name} ${JSON.stringify(next.value.input)}`);
      if (next.value.type === 'tool-end') {
        const text = next.value.result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
        print(`<- ${next.value.result.isError ? '(error) ' : ''}${text.split('\n').join('\n   ')}`);
      }
    }
    const issues = JSON.parse(await readFile(issuesFile, 'utf8')) as McpAgentResult['issues'];
    return { outcome, toolNames, issues, events, live };
  } finally {
    await tools.close(); // ends both server processes
    await mock?.close();
    await rm(base, { recursive: true, force: true });
  }
}
