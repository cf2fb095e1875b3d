import { describe, expect, it } from 'vitest';
import { closeToolNames } from './close-tool-names.js';

const names = ['read', 'write', 'grep', 'web_fetch', 'mcp__github__create_issue', 'mcp__github__list_issues'];

describe('closeToolNames', () => {
  it('finds typos and other casings', () => {
    expect(closeToolNames('raed', names)).toEqual(['read']);
    expect(closeToolNames('Write', names)).toEqual(['write']);
    expect(closeToolNames('webfetch', names)).toEqual(['web_fetch']);
  });

  it('finds names containing the given part', () => {
    expect(closeToolNames('create_issue', names)).toEqual(['mcp__github__create_issue']);
  });

  it('finds nothing for an unrelated name', () => {
    expect(closeToolNames('deploy_production', names)).toEqual([]);
  });
});
