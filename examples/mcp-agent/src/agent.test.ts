import { describe, expect, it } from 'vitest';
import { runMcpAgent, TODO_MD } from './agent.js';

describe('the mcp-agent example (offline, on the testkit)', () => {
  it('runs with tools from two real MCP server processes and changes the tracker through one', {
    timeout: 60_000,
  }, async () => {
    const { outcome, toolNames, issues, events } = await runMcpAgent({ live: false });
    expect(outcome.reason).toBe('end_turn');
    // Only the filesystem server's allowed read tools, and both tracker tools.
    expect(toolNames.sort()).toEqual([
      'mcp__files__list_directory',
      'mcp__files__read_text_file',
      'mcp__files__search_files',
      'mcp__tracker__close_issue',
      'mcp__tracker__list_issues',
    ]);
    const results = new Map(
      events.flatMap((event) =>
        event.type === 'tool-end'
          ? [[event.name, event.result.content.map((block) => (block.type === 'text' ? block.text : '')).join('')]]
          : [],
      ),
    );
    // What the servers really answered: the file on disk, the issues in the tracker's file.
    expect(results.get('mcp__files__read_text_file')).toBe(TODO_MD);
    expect(results.get('mcp__tracker__list_issues')).toBe(
      '#1 [open] Dark mode\n#2 [open] CSV export of the monthly report\n#3 [open] Faster search',
    );
    expect(results.get('mcp__tracker__close_issue')).toBe('Closed #2 "CSV export of the monthly report".');
    expect(issues.map((issue) => issue.state)).toEqual(['open', 'closed', 'open']);
    expect(issues[1]?.comment).toBe('TODO.md marks the CSV export done.');
  });
});
