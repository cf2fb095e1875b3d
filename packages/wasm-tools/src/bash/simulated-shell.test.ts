import { lstat, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText, type ToolContext } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from './bash-tool.js';

function context(root: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return { root, signal: new AbortController().signal, sessionId: 's', turnId: 't', toolCallId: 'c', ...overrides };
}

let base: string;
let root: string;
const SECRET = 'outside-secret-5f2c9';

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'bash-sim-')));
  root = join(base, 'root');
  await mkdir(root);
  await writeFile(join(base, 'outside.txt'), SECRET);
  await writeFile(join(root, 'a.txt'), 'alpha\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function run(command: string, overrides: Partial<ToolContext> = {}, tool = createBashTool()) {
  const result = await tool.execute({ command }, context(root, overrides));
  return { result, text: resultText(result) };
}

describe('simulated bash: shell features', () => {
  it('runs pipes, redirection and coreutils on the real files of the root', async () => {
    const { result, text } = await run(
      "printf 'b\\na\\nc\\n' > list.txt; sort list.txt | head -2 | tr a-z A-Z; seq 1 5 | awk '{s+=$1} END {print s}'",
    );
    expect(result.isError).toBeFalsy();
    expect(text).toBe('stdout:\nA\nB\n15\n\nexit code: 0');
    expect(await readFile(join(root, 'list.txt'), 'utf8')).toBe('b\na\nc\n');
  });

  it('labels stderr, appends with >> and redirects 2>', async () => {
    const { text } = await run('echo one > f; echo two >> f; cat f; ls missing 2> err.txt; cat nothing-here; true');
    expect(text).toContain('stdout:\none\ntwo');
    expect(text).toContain('stderr:\ncat: nothing-here: No such file or directory');
    expect(await readFile(join(root, 'err.txt'), 'utf8')).toContain('missing');
  });

  it('reports a non-zero exit code as a normal result with the code', async () => {
    const { result, text } = await run('echo before; exit 3');
    expect(result.isError).toBeFalsy();
    expect(text).toBe('stdout:\nbefore\n\nexit code: 3');
    expect(result.metadata).toMatchObject({ exitCode: 3, outcome: 'exited', mode: 'simulated' });
  });

  it('starts a fresh shell per call: variables and cd do not carry over, files do', async () => {
    await run('export MARK=set; mkdir sub; cd sub; echo kept > note.txt');
    const { text } = await run('echo "[$MARK]"; pwd; cat sub/note.txt');
    expect(text).toContain(`[]\n${root}\nkept`);
  });

  it('passes configured environment variables', async () => {
    const tool = createBashTool({ env: { GREETING: 'hi there' } });
    const { text } = await run('echo "$GREETING"', {}, tool);
    expect(text).toContain('hi there');
  });
});

describe('simulated bash: confinement', () => {
  it('does not see host files such as /etc/passwd', async () => {
    const { text, result } = await run('cat /etc/passwd');
    expect(text).not.toContain('root:');
    expect(result.metadata?.exitCode).not.toBe(0);
  });

  it('cannot list or read the parent folder with cd .. or ../', async () => {
    const listing = await run('cd ..; ls; cat outside.txt');
    expect(listing.text).not.toContain('outside.txt\n');
    expect(listing.text).not.toContain(SECRET);
    const relative = await run('cat ../outside.txt');
    expect(relative.text).not.toContain(SECRET);
  });

  it('cannot read or write absolute host paths outside the root', async () => {
    const read = await run(`cat ${join(base, 'outside.txt')}`);
    expect(read.text).not.toContain(SECRET);
    await run(`echo escaped > ${join(base, 'escaped.txt')}`);
    await expect(lstat(join(base, 'escaped.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('reads absolute host paths inside the root', async () => {
    const { text } = await run(`cat ${join(root, 'a.txt')}`);
    expect(text).toContain('alpha');
  });

  it('does not follow a symlink planted in the root that points outside', async () => {
    await symlink(base, join(root, 'link'));
    const read = await run('cat link/outside.txt');
    expect(read.text).not.toContain(SECRET);
    await run('echo planted > link/new.txt');
    await expect(lstat(join(base, 'new.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('cannot create links', async () => {
    await run('ln -s / rootlink; ln -s ../outside.txt near; ln a.txt hard');
    for (const name of ['rootlink', 'near', 'hard']) {
      await expect(lstat(join(root, name))).rejects.toThrow(/ENOENT/);
    }
  });

  it('cannot write, delete, move or touch protected paths', async () => {
    await mkdir(join(root, '.git'));
    await writeFile(join(root, '.git', 'config'), 'original');
    const redirect = await run('echo hacked > .git/config');
    expect(redirect.result.isError).toBe(true);
    expect(redirect.text).toContain('protected');
    const changes = await run('rm -rf .git; mv .git moved; touch .git/hook; mkdir .git/hooks; cp a.txt .git/config');
    expect(changes.text.match(/protected path/g)?.length).toBeGreaterThanOrEqual(3);
    expect(await readFile(join(root, '.git', 'config'), 'utf8')).toBe('original');
    await expect(lstat(join(root, '.git', 'hook'))).rejects.toThrow(/ENOENT/);
    await expect(lstat(join(root, '.git', 'hooks'))).rejects.toThrow(/ENOENT/);
    await expect(lstat(join(root, 'moved'))).rejects.toThrow(/ENOENT/);
    const read = await run('cat .git/config');
    expect(read.text).toContain('original');
  });

  it('honours custom protected paths', async () => {
    const tool = createBashTool({ protectedPaths: ['keep/**'] });
    await mkdir(join(root, 'keep'));
    await writeFile(join(root, 'keep', 'x.txt'), 'x');
    const redirect = await run('echo changed > keep/x.txt', {}, tool);
    expect(redirect.result.isError).toBe(true);
    const removal = await run('rm keep/x.txt', {}, tool);
    expect(removal.text).toContain("rm: cannot remove 'keep/x.txt'");
    await run('echo ok > .git-like', {}, tool);
    expect(await readFile(join(root, 'keep', 'x.txt'), 'utf8')).toBe('x');
    expect(await readFile(join(root, '.git-like'), 'utf8')).toBe('ok\n');
  });
});

describe('simulated bash: limits', () => {
  it('stops a runaway loop', async () => {
    const { result, text } = await run('while true; do :; done');
    expect(result.metadata?.exitCode).not.toBe(0);
    expect(text).toMatch(/too many|limit/i);
  });

  it('stops a command at its timeout', async () => {
    const tool = createBashTool();
    const result = await tool.execute({ command: 'sleep 30', timeout: 300 }, context(root));
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'timed-out', timeoutMs: 300 });
    expect(resultText(result)).toContain('timed out after 300 ms');
  });

  it('caps the timeout a call asks for and keeps its description', async () => {
    const tool = createBashTool({ timeoutMs: 500, maxTimeoutMs: 1_000 });
    const result = await tool.execute({ command: 'echo ok', timeout: 9_999_999, description: 'Say ok' }, context(root));
    expect(result.metadata).toMatchObject({ timeoutMs: 1_000, description: 'Say ok', exitCode: 0 });
    const defaulted = await tool.execute({ command: 'echo ok' }, context(root));
    expect(defaulted.metadata).toMatchObject({ timeoutMs: 500 });
  });

  it('stops when the context signal is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const { result } = await run('sleep 30', { signal: controller.signal });
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'aborted' });
  });

  it('caps output, keeping head and tail', async () => {
    const tool = createBashTool({ maxOutputBytes: 2000 });
    const { text, result } = await run('seq 1 50000', {}, tool);
    expect(text.startsWith('stdout:\n1\n2\n3\n')).toBe(true);
    expect(text).toContain('bytes of output omitted');
    expect(text).toContain('49999\n50000');
    expect(text.length).toBeLessThan(2200);
    expect(result.metadata).toMatchObject({ truncated: true });
  });

  it('refuses a root that does not exist with an error result', async () => {
    const result = await createBashTool().execute({ command: 'ls' }, context(join(base, 'missing')));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('does not exist');
  });
});
