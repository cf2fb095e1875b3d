import { describe, expect, it } from 'vitest';
import { queryTerms, RANK_WEIGHTS, type RankableTool, rankTools, scoreTool, splitWords } from './rank-tools.js';

function tool(name: string, description = '', parameters: string[] = []): RankableTool {
  return { name, description, parameters };
}

function names(tools: readonly RankableTool[], query: string): string[] {
  const result = rankTools(tools, query);
  if (!result.ok) throw new Error(result.error);
  return result.matches.map((match) => match.tool.name);
}

describe('splitWords', () => {
  it('splits MCP names, snake case, kebab case and camel case', () => {
    expect(splitWords('mcp__github__create_issue')).toEqual(['mcp', 'github', 'create', 'issue']);
    expect(splitWords('createPullRequest')).toEqual(['create', 'pull', 'request']);
    expect(splitWords('web-fetch')).toEqual(['web', 'fetch']);
    expect(splitWords('parseHTTPResponse')).toEqual(['parse', 'http', 'response']);
    expect(splitWords('  Read a FILE, then 2 more! ')).toEqual(['read', 'a', 'file', 'then', '2', 'more']);
  });
});

describe('queryTerms', () => {
  it('drops duplicates and stop words, unless only stop words are left', () => {
    expect(queryTerms('read the file, read it')).toEqual(['read', 'file']);
    expect(queryTerms('the')).toEqual(['the']);
    expect(queryTerms(' ,; ')).toEqual([]);
  });
});

describe('rankTools', () => {
  const tools = [
    tool('grep', 'Search file contents with a regular expression.', ['pattern', 'path']),
    tool('read_file', 'Read a text file from the working root.', ['path', 'offset', 'limit']),
    tool('mcp__github__create_issue', 'Open a new issue in a GitHub repository.', ['owner', 'repo', 'title', 'body']),
    tool('mcp__github__list_issues', 'List the issues of a repository.', ['owner', 'repo', 'state']),
    tool('web_fetch', 'Fetch a URL and return its text.', ['url']),
    tool('read', 'Read anything.', []),
  ];

  it('puts an exact name match first', () => {
    expect(names(tools, 'read')[0]).toBe('read');
    expect(names(tools, 'READ_FILE')[0]).toBe('read_file');
    expect(scoreTool(tools[5] as RankableTool, 'read', ['read'])).toBeGreaterThanOrEqual(RANK_WEIGHTS.exactName);
  });

  it('matches words of names split from MCP and snake case, above description matches', () => {
    expect(names(tools, 'github issue')).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
    expect(names(tools, 'create')).toEqual(['mcp__github__create_issue']);
    // "fetch" is in web_fetch's name and description; "file" only in descriptions and names of others
    expect(names(tools, 'fetch')).toEqual(['web_fetch']);
  });

  it('matches prefixes of words', () => {
    expect(names(tools, 'iss')).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
  });

  it('matches descriptions', () => {
    expect(names(tools, 'regular expression')).toEqual(['grep']);
    expect(names(tools, 'url')).toEqual(['web_fetch']);
  });

  it('matches parameter names, ranked between name and description matches', () => {
    const pool = [
      tool('alpha', 'Mentions title somewhere.', []),
      tool('beta', 'Nothing here.', ['title']),
      tool('title_tool', 'Nothing here.', []),
    ];
    expect(names(pool, 'title')).toEqual(['title_tool', 'beta', 'alpha']);
    expect(names(tools, 'owner')).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
  });

  it('adds up matches of several words', () => {
    expect(names(tools, 'repository issue title')[0]).toBe('mcp__github__create_issue');
  });

  it('keeps the input order for equal scores', () => {
    const pool = [tool('one_thing', 'x'), tool('two_thing', 'x'), tool('three_thing', 'x')];
    expect(names(pool, 'thing')).toEqual(['one_thing', 'two_thing', 'three_thing']);
    expect(names([...pool].reverse(), 'thing')).toEqual(['three_thing', 'two_thing', 'one_thing']);
  });

  it('leaves out tools that match nothing', () => {
    expect(names(tools, 'kubernetes')).toEqual([]);
  });

  it('refuses an empty query', () => {
    for (const query of ['', '   ', '--']) {
      const result = rankTools(tools, query);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/no words to search for/);
    }
  });
});
