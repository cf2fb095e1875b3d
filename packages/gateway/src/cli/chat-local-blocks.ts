import { spawn } from 'node:child_process';
import type { UserLocalCommandOutputBlock, UserMemoryInputBlock } from '@boxagnts/api';

/** Most characters of a local command's output kept in the transcript (the tail beyond is cut with a note). */
export const MAX_LOCAL_OUTPUT_CHARS = 64_000;

/**
 * Runs a command the user typed after `!` with `/bin/sh -c` in `cwd`, stdin closed, and returns its
 * output (stdout then stderr, as captured) as a `user_local_command_output` block. A command that
 * cannot start, exits non-zero or is cancelled through `signal` (Ctrl-C in the chat) still gives a
 * block: the status is appended to the output.
 */
export function runLocalCommand(
  command: string,
  cwd: string,
  signal?: AbortSignal,
): Promise<UserLocalCommandOutputBlock> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(signal === undefined ? {} : { signal }),
    });
    let output = '';
    const add = (chunk: Buffer) => {
      if (output.length < MAX_LOCAL_OUTPUT_CHARS) output += chunk.toString();
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    const finish = (status: string | undefined) => {
      let text =
        output.length > MAX_LOCAL_OUTPUT_CHARS ? `${output.slice(0, MAX_LOCAL_OUTPUT_CHARS)}\n[output cut]` : output;
      if (status !== undefined) text += `${text === '' || text.endsWith('\n') ? '' : '\n'}[${status}]`;
      resolve({ type: 'user_local_command_output', command, output: text });
    };
    child.once('error', (error) =>
      finish(error.name === 'AbortError' ? 'cancelled' : `could not start: ${error.message}`),
    );
    child.once('close', (code, signal) =>
      finish(signal !== null ? `killed by ${signal}` : code === 0 ? undefined : `exit status ${code}`),
    );
  });
}

/**
 * The `user_memory_input` block of a `#note` line: `# key: value` keeps the key, a note without a
 * colon is stored under the key `note`. Undefined for an empty note.
 */
export function memoryBlock(line: string): UserMemoryInputBlock | undefined {
  const text = line.replace(/^#/, '').trim();
  if (text === '') return undefined;
  const colon = text.indexOf(':');
  if (colon > 0 && colon < 64 && text.slice(colon + 1).trim() !== '') {
    return { type: 'user_memory_input', key: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
  }
  return { type: 'user_memory_input', key: 'note', value: text };
}
