import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const scripts = dirname(fileURLToPath(import.meta.url));
const folders: string[] = [];

function folder(): string {
  const path = mkdtempSync(join(tmpdir(), 'report-node-counts-'));
  folders.push(path);
  return path;
}

function report(dir: string, name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [join(scripts, 'report-node-counts.mjs'), ...args], { encoding: 'utf8' });
  return { status: result.status, lines: result.stdout.trimEnd().split('\n'), stderr: result.stderr };
}

afterEach(() => {
  for (const path of folders.splice(0)) rmSync(path, { recursive: true, force: true });
});

describe('report-node-counts', () => {
  it('prints one line per Node major and the total as the last line', () => {
    const dir = folder();
    const node20 = report(dir, 'a.json', {
      numPassedTests: 10,
      numFailedTests: 0,
      numPendingTests: 2,
      numTodoTests: 1,
    });
    const node22 = report(dir, 'b.json', { numPassedTests: 9, numFailedTests: 0, numPendingTests: 1 });
    const result = run(`node 20=${node20}`, `node 22=${node22}`, 'node 24 demo=status:0');
    expect(result.lines).toEqual([
      'node 20: 10 passed, 0 failed, 3 skipped',
      'node 22: 9 passed, 0 failed, 1 skipped',
      'node 24 demo: 1 passed, 0 failed, 0 skipped',
      '20 passed, 0 failed, 4 skipped',
    ]);
    expect(result.status).toBe(0);
  });

  it('fails when any major has a failure, a file that did not load, or a failed check', () => {
    const dir = folder();
    const failing = report(dir, 'a.json', {
      numPassedTests: 5,
      numFailedTests: 1,
      testResults: [
        { status: 'failed', assertionResults: [] },
        { status: 'passed', assertionResults: [{}] },
      ],
    });
    const result = run(`node 22=${failing}`, 'node 24 demo=status:1');
    expect(result.lines).toEqual([
      'node 22: 5 passed, 2 failed, 0 skipped',
      'node 24 demo: 0 passed, 1 failed, 0 skipped',
      '5 passed, 3 failed, 0 skipped',
    ]);
    expect(result.status).toBe(1);
  });

  it('counts a missing, truncated or foreign report as one failure and says which file', () => {
    const dir = folder();
    const truncated = report(dir, 'truncated.json', '{"numPassedTests": 3,');
    const foreign = report(dir, 'foreign.json', [1, 2, 3]);
    const hostile = report(dir, 'hostile.json', { numPassedTests: -5, numFailedTests: 'many', numPendingTests: 1e300 });
    const result = run(
      `node 22=${join(dir, 'absent.json')}`,
      `node 24=${truncated}`,
      `node 26=${foreign}`,
      `node 28=${hostile}`,
    );
    expect(result.lines.at(-1)).toBe('0 passed, 3 failed, 0 skipped');
    expect(result.lines[3]).toBe('node 28: 0 passed, 0 failed, 0 skipped');
    expect(result.stderr).toContain('absent.json');
    expect(result.stderr).toContain('truncated.json');
    expect(result.stderr).toContain('foreign.json is not a vitest JSON report');
    expect(result.status).toBe(1);
  });

  it('rejects malformed arguments with a usage message and prints no total', () => {
    for (const args of [[], ['no-separator'], ['=path'], ['label='], ['demo=status:ok'], ['demo=status:-1']]) {
      const result = run(...args);
      expect(result.status, JSON.stringify(args)).toBe(2);
      expect(result.stderr).toContain('usage: node scripts/report-node-counts.mjs');
      expect(result.lines.at(-1) ?? '').not.toMatch(/passed, \d+ failed/);
    }
  });
});

describe('the Node matrix scripts', () => {
  const shells = ['setup-node.sh', 'node-copy.sh', 'test-node.sh', 'demo-node.sh'];

  it.each(shells)('%s refuses a version it cannot install, before installing anything', (script) => {
    const cache = folder();
    for (const version of ['19', 'latest', '22; touch pwned', '../22', '22.x']) {
      const result = spawnSync('bash', [join(scripts, script), version], {
        encoding: 'utf8',
        env: { ...process.env, BOXAGNTS_NODE_CACHE: cache },
      });
      expect(result.status, `${script} ${version}`).toBe(2);
      expect(result.stderr).toContain('is not a Node version this matrix can install');
      expect(result.stdout).toBe('');
    }
  });

  it.each(shells)('%s without a version prints its usage', (script) => {
    const result = spawnSync('bash', [join(scripts, script)], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`usage: bash scripts/${script}`);
  });
});
