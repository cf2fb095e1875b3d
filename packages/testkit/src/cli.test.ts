import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCli } from './cli-options.js';

// The CLI runs as a real child process (through tsx, since tests run against the sources).
const cliPath = join(dirname(fileURLToPath(import.meta.url)), 'cli.ts');
const tsxLoader = createRequire(import.meta.url).resolve('tsx');
const children: ChildProcessWithoutNullStreams[] = [];

function runCli(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', tsxLoader, cliPath, ...args], { stdio: 'pipe' });
  children.push(child);
  return child;
}

function waitForLine(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = pattern.exec(output);
      if (match) {
        child.stdout.off('data', onData);
        resolve(match[0]);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing ${pattern}: ${output}`)));
  });
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

function scriptFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mock-cli-')), 'script.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('boxagnts-mock CLI', () => {
  it('serves a script file and logs each request', async () => {
    const child = runCli(['--script', scriptFile({ steps: [{ text: 'from the CLI' }] }), '--models', 'm1,m2']);
    const url = (await waitForLine(child, /http:\/\/127\.0\.0\.1:\d+/)).trim();
    const logged = waitForLine(child, /#1 POST \/v1\/chat\/completions openai-chat model=gpt-x stream=false/);
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]?.message.content).toBe('from the CLI');
    await logged;
    const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((model) => model.id)).toEqual(['m1', 'm2']);
    const exited = exitOf(child);
    child.kill('SIGTERM');
    expect((await exited).code).toBe(0);
  });

  it('exits 2 naming the field when the script is invalid', async () => {
    const child = runCli(['--script', scriptFile({ steps: [{ content: [{ type: 'tool_call' }] }] })]);
    const { code, stderr } = await exitOf(child);
    expect(code).toBe(2);
    expect(stderr).toContain('steps[0].content[0].name');
  });
});

describe('parseCli', () => {
  it('turns --replay, --protocol and --repeat into replay steps', async () => {
    const command = await parseCli([
      '--replay',
      'a.chunks.txt',
      '--replay',
      'b.json',
      '--protocol',
      'gemini',
      '--repeat',
    ]);
    expect(command).toMatchObject({
      kind: 'serve',
      options: {
        port: 0,
        script: {
          steps: [
            { replay: 'a.chunks.txt', protocol: 'gemini' },
            { replay: 'b.json', protocol: 'gemini' },
          ],
          repeatLast: true,
        },
      },
    });
  });

  it('says what is wrong with a bad flag, port, protocol or file', async () => {
    await expect(parseCli(['--nope'])).rejects.toThrow(/Unknown option '--nope'/);
    await expect(parseCli(['--port', '70000'])).rejects.toThrow(/--port must be a whole number/);
    await expect(parseCli(['--protocol', 'smtp'])).rejects.toThrow(/--protocol must be one of/);
    await expect(parseCli(['--script', '/nonexistent/script.json'])).rejects.toThrow(/cannot read --script/);
    await expect(parseCli(['--script', scriptFile('{not json')])).rejects.toThrow(/is not JSON/);
    expect(await parseCli(['--help'])).toEqual({ kind: 'help' });
  });
});
