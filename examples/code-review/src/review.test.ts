import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCodeReview, SAMPLE_FOLDER } from './review.js';

describe('the code-review example (offline, on the testkit)', () => {
  it('loads the skill, runs one parallel read-only reviewer per file over the real folder, and reports a table', {
    timeout: 60_000,
  }, async () => {
    const before = await Promise.all(
      ['files.py', 'inventory.py', 'users.py'].map((file) => readFile(join(SAMPLE_FOLDER, file), 'utf8')),
    );
    const { outcome, report, reviewers, events } = await runCodeReview({ live: false });
    expect(outcome.reason).toBe('end_turn');

    // The skill really expanded from extensions/skills.
    const skill = events.find((event) => event.type === 'tool-end' && event.name === 'skill');
    expect(skill?.type === 'tool-end' && !skill.result.isError).toBe(true);
    expect(JSON.stringify(skill?.type === 'tool-end' ? skill.result.content : '')).toContain('# Skill: code-review');

    // One reviewer per file, each reading its own file through the sandbox.
    expect(reviewers.map((row) => row.filesRead)).toEqual([['files.py'], ['inventory.py'], ['users.py']]);
    const reads = events.flatMap((event) =>
      event.type === 'sub-agent' && event.event.type === 'tool-end' ? [event.event] : [],
    );
    expect(reads.map((read) => read.result.isError === true)).toEqual([false, false, false]);
    expect(JSON.stringify(reads.map((read) => read.result.content))).toContain('return total / len(items)');
    expect(reviewers.every((row) => row.calls === 2)).toBe(true);

    // They ran at the same time: every reviewer started before the first one ended.
    const first = new Map<string, number>();
    const last = new Map<string, number>();
    events.forEach((event, index) => {
      if (event.type !== 'sub-agent') return;
      if (!first.has(event.agentId)) first.set(event.agentId, index);
      last.set(event.agentId, index);
    });
    expect(Math.max(...first.values())).toBeLessThan(Math.min(...last.values()));

    // The report: the model's table, then the host's reviewers table.
    expect(report).toContain('| where | severity | finding | suggested fix |');
    expect(report).toMatch(/\| users\.py:6 \| Blocking \| SQL injection/);
    expect(report).toMatch(/\| agent-1-\d \| review inventory\.py \| inventory\.py \| 2 \| \d+\.\d{4} \|/);
    // Read-only: the folder is unchanged.
    const after = await Promise.all(
      ['files.py', 'inventory.py', 'users.py'].map((file) => readFile(join(SAMPLE_FOLDER, file), 'utf8')),
    );
    expect(after).toEqual(before);
  });
});
