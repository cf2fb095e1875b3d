import { join } from 'node:path';
import type { MockScript } from '@boxagnts/testkit';

const usage = (input: number, output: number) => ({ input, output });

/**
 * The model's part when no API key is set: read the project's TODO.md through the filesystem
 * server and the open issues through the tracker server (both read-only, so they run together),
 * close the issue the notes mark done, and answer.
 */
export function mcpAgentScript(project: string): MockScript {
  return {
    chunking: { textDelta: 24, argumentsDelta: 32, delayMs: 2 },
    steps: [
      {
        content: [
          { type: 'text', text: 'Reading the notes and the open issues.' },
          { type: 'tool_call', name: 'mcp__files__read_text_file', input: { path: join(project, 'TODO.md') } },
          { type: 'tool_call', name: 'mcp__tracker__list_issues', input: { state: 'open' } },
        ],
        usage: usage(1600, 70),
      },
      {
        content: [
          {
            type: 'tool_call',
            name: 'mcp__tracker__close_issue',
            input: { id: 2, comment: 'TODO.md marks the CSV export done.' },
          },
        ],
        usage: usage(1900, 40),
      },
      { text: 'Closed #2 (CSV export), which TODO.md marks done; #1 and #3 stay open.', usage: usage(2100, 30) },
    ],
  };
}
