// A small MCP server over stdio, written with the official MCP SDK: an issue tracker whose issues
// live in a JSON file (first argument), so every change it makes is visible on disk.
// Run: node src/tracker-server.mjs issues.json
import { readFile, writeFile } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write('usage: tracker-server.mjs <issues.json>\n');
  process.exit(2);
}

const load = async () => JSON.parse(await readFile(file, 'utf8'));
const text = (value) => ({ content: [{ type: 'text', text: value }] });

const server = new McpServer({ name: 'tracker', version: '1.0.0' });

server.registerTool(
  'list_issues',
  {
    description: 'List the issues of the tracker with their id, title and state.',
    inputSchema: { state: z.enum(['open', 'closed', 'all']).default('all') },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ state }) => {
    const issues = (await load()).filter((issue) => state === 'all' || issue.state === state);
    return text(issues.map((issue) => `#${issue.id} [${issue.state}] ${issue.title}`).join('\n') || '(no issues)');
  },
);

server.registerTool(
  'close_issue',
  {
    description: 'Close an open issue, with a comment saying why.',
    inputSchema: { id: z.number().int().positive(), comment: z.string().min(1) },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  async ({ id, comment }) => {
    const issues = await load();
    const issue = issues.find((candidate) => candidate.id === id);
    if (issue === undefined) return { ...text(`No issue #${id}; list_issues shows the ids.`), isError: true };
    if (issue.state === 'closed') return { ...text(`Issue #${id} is already closed.`), isError: true };
    issue.state = 'closed';
    issue.comment = comment;
    await writeFile(file, `${JSON.stringify(issues, null, 2)}\n`);
    return text(`Closed #${id} "${issue.title}".`);
  },
);

await server.connect(new StdioServerTransport());
