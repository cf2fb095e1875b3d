// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the cases are shell text, `${...}` is the shell's.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Bash, defineCommand } from 'just-bash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionEngine } from './permission-engine.js';

// Commands crafted so that a hand-written splitter and the shell read them differently. Each is
// first run by real shells (just-bash, which the `bash` tool runs, and the host's bash, which its
// opt-in host shell runs) with a recording `rm`: the test checks that at least one of them really
// runs `rm` on the file `a`, so no case here is vacuous. Then `deny: bash(rm:*)` must catch it and
// an allow list of harmless commands must not allow it.
const ATTACKS: readonly string[] = [
  // quoting and ANSI-C quoting
  "$'\\x72m' a",
  "$'\\162m' a",
  "$'\\u0072m' a",
  `'r'"m" a`,
  'r\\m a',
  // expansions in the program name
  'x=rm; $x a',
  'x=r; ${x}m a',
  '${x:-rm} a',
  'rm$IFS"a"',
  '{rm,a}',
  '$(echo rm) a',
  '`echo rm` a',
  'cmd=(rm a); "${cmd[@]}"',
  // separators
  'echo x; rm a',
  'echo x && rm a',
  'false || rm a',
  'echo x | rm a',
  'echo x\nrm a',
  'echo x & rm a',
  'echo x |& rm a',
  // line continuations
  'r\\\nm a',
  'echo x \\\n; rm a',
  // substitutions and arithmetic
  'echo $(rm a)',
  'echo "$(rm a)"',
  'echo `rm a`',
  'a=$(rm a)',
  'echo $(( $(rm a) ))',
  '[[ -n $(rm a) ]]',
  'cat <(rm a)',
  // here-documents and here-strings
  'cat <<EOF\n$(rm a)\nEOF',
  'bash <<EOF\nrm a\nEOF',
  'sh <<< "rm a"',
  // scripts given to a shell another way
  'echo rm a | bash',
  "printf 'rm a' | sh",
  "printf 'rm\\x20a' | sh",
  "printf 'r%s a' m | sh",
  "printf '%s %s' rm a | sh",
  "echo -e 'rm\\ta' | sh",
  'echo rm a | bash -s x',
  "bash -c 'rm a'",
  'sh -c "echo x; rm a"',
  "eval 'r''m a'",
  'eval "$(echo rm a)"',
  "trap 'rm a' EXIT",
  "env -S 'rm a'",
  'source <(echo rm a)',
  // wrappers
  'env X=1 rm a',
  'command rm a',
  'exec rm a',
  'time rm a',
  'timeout 5 rm a',
  'nohup rm a',
  'xargs rm <<< a',
  'echo a | xargs rm',
  'find . -name a -exec rm {} \\;',
  // program paths and globs
  '/bin/rm a',
  '/bin/r? a',
  '/bin/r[m] a',
  '"$(dirname /bin/x)"/rm a',
  // compound commands and functions defined inline
  '! rm a',
  '(rm a)',
  '{ rm a; }',
  'if true; then rm a; fi',
  'while rm a; do break; done',
  'for i in 1; do rm a; done',
  'case x in x) rm a;; esac',
  'f() { rm a; }; f',
  'function g { rm a; }; g',
  'ls() { rm "$@"; }; ls a',
  'select x in 1; do rm a; break; done <<< 1',
  'coproc rm a; wait',
  'shopt -s expand_aliases\nalias ls="rm"\nls a',
  // wrappers with options and `--`
  'command -p rm a',
  'exec -a x rm a',
  'env -- rm a',
  'nice -n 5 -- rm a',
  'xargs -I{} rm {} <<< a',
  '\\command rm a',
  'time -p rm a',
  // redirections around the command
  '>out rm a',
  '2>/dev/null rm a',
];

let work = '';
let fakeBin = '';

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'shell-parser-attacks-'));
  fakeBin = path.join(work, 'bin');
  await mkdir(fakeBin);
  // A recording rm for the host bash: it notes its arguments instead of deleting.
  await writeFile(path.join(fakeBin, 'rm'), '#!/bin/sh\necho "$@" >> "$RM_LOG"\n');
  await chmod(path.join(fakeBin, 'rm'), 0o755);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Does just-bash (the shell of the `bash` tool) run `rm a` for this command? */
async function simulatedShellRunsRm(command: string): Promise<boolean> {
  let ran = false;
  const recordingRm = defineCommand('rm', async (args) => {
    if (args.includes('a')) ran = true;
    return { stdout: '', stderr: '', exitCode: 0 };
  });
  const shell = new Bash({ customCommands: [recordingRm], files: { '/home/user/a': 'x' }, cwd: '/home/user' });
  try {
    await shell.exec(command);
  } catch {
    // A shell error still counts only if rm ran first.
  }
  return ran;
}

/** Does the host's bash run rm on `a` (the recording rm on PATH, or /bin/rm deleting the file)? */
async function hostBashRunsRm(command: string, index: number): Promise<boolean> {
  const folder = path.join(work, `case-${index}`);
  await mkdir(folder);
  await writeFile(path.join(folder, 'a'), 'x');
  const log = path.join(folder, 'rm.log');
  await promisify(execFile)('bash', ['-c', command], {
    cwd: folder,
    env: { PATH: `${fakeBin}:/usr/bin:/bin`, RM_LOG: log, HOME: folder },
    timeout: 5_000,
  }).catch(() => undefined);
  return existsSync(log) || !existsSync(path.join(folder, 'a'));
}

const bash = { name: 'bash', permission: 'execute' } as const;

describe('the permission engine and the shell agree on what runs', () => {
  const deny = createPermissionEngine({ rules: { deny: ['bash(rm:*)'] } });
  const allow = createPermissionEngine({
    rules: { allow: ['bash(echo:*)', 'bash(cat:*)', 'bash(ls:*)', 'bash(true)', 'bash(false)', 'bash(printf:*)'] },
  });

  it.each(ATTACKS.map((command, index) => [command, index] as const))('%j', async (command, index) => {
    const [simulated, host] = await Promise.all([simulatedShellRunsRm(command), hostBashRunsRm(command, index)]);
    expect(simulated || host, 'a real shell runs rm for this command').toBe(true);
    expect(deny.evaluate(bash, { command }, { root: work }).behavior).toBe('deny');
    expect(allow.evaluate(bash, { command }, { root: work }).behavior).not.toBe('allow');
  });

  it('the oracle itself tells a command that does not run rm', async () => {
    const harmless = ['echo rm a', 'git rm a', "echo 'rm a'", 'true # ; rm a'];
    for (const [index, command] of harmless.entries()) {
      expect(await simulatedShellRunsRm(command), command).toBe(false);
      expect(await hostBashRunsRm(command, 1000 + index), command).toBe(false);
      expect(deny.evaluate(bash, { command }, { root: work }).behavior, command).not.toBe('deny');
    }
  });

  it('a program named at run time is denied with a reason that says so', () => {
    const decision = deny.evaluate(bash, { command: 'x=rm; $x a' }, { root: work });
    expect(decision).toMatchObject({ behavior: 'deny', rule: 'bash(rm:*)' });
    expect(decision.reason).toContain('`$x` is known only when the shell runs it');
  });

  it('text the parser refuses matches deny rules (bash may still run part of it) and is never allowed', () => {
    for (const command of ['coproc rm a', 'echo "unterminated', 'a;;b']) {
      const decision = deny.evaluate(bash, { command }, { root: work });
      expect(decision.behavior, command).toBe('deny');
      expect(decision.reason).toContain('text the shell parser cannot read');
      expect(allow.evaluate(bash, { command }, { root: work }).behavior, command).not.toBe('allow');
    }
  });

  it('a program path with a computed folder but a literal name is judged by that name', () => {
    expect(deny.evaluate(bash, { command: '"$HOME"/bin/rm a' }, { root: work }).behavior).toBe('deny');
    expect(deny.evaluate(bash, { command: '"$HOME"/bin/make a' }, { root: work }).behavior).not.toBe('deny');
  });
});

describe('generated spellings: whatever way the simulated shell runs rm, the deny rule catches it', () => {
  const deny = createPermissionEngine({ rules: { deny: ['bash(rm:*)'] } });
  const prefixes = ['', 'env X=1 ', 'command ', 'FOO=1 ', 'time '];
  const spellings = ['rm', "'rm'", '"r"m', 'r\\m', "$'\\x72m'", '/bin/rm', '${x:-rm}', 'x=rm; $x'];
  const contexts = [
    (command: string) => command,
    (command: string) => `true && ${command}`,
    (command: string) => `false || ${command}`,
    (command: string) => `echo x | ${command}`,
    (command: string) => `(${command})`,
    (command: string) => `{ ${command}; }`,
    (command: string) => `if true; then ${command}; fi`,
    (command: string) => `f() { ${command}; }; f`,
    (command: string) => `echo $(${command})`,
    (command: string) => `true\n${command}`,
  ];
  const commands = contexts.flatMap((context) =>
    prefixes.flatMap((prefix) =>
      spellings.map((spelling) =>
        context(spelling.startsWith('x=rm;') ? `x=rm; ${prefix}$x a` : `${prefix}${spelling} a`),
      ),
    ),
  );

  it(`checks ${commands.length} combinations of wrapper, spelling and context`, async () => {
    // One shell for all (each exec starts from a clean state), with a recording rm.
    let hit = false;
    const recordingRm = defineCommand('rm', async (args) => {
      if (args.includes('a')) hit = true;
      return { stdout: '', stderr: '', exitCode: 0 };
    });
    const shell = new Bash({ customCommands: [recordingRm], files: { '/home/user/a': 'x' }, cwd: '/home/user' });
    let ran = 0;
    const missed: string[] = [];
    for (const command of commands) {
      hit = false;
      await shell.exec(command).catch(() => undefined);
      if (!hit) continue;
      ran++;
      if (deny.evaluate(bash, { command }, { root: work }).behavior !== 'deny') missed.push(command);
    }
    expect(missed).toEqual([]);
    // Most combinations really run rm in the shell; the check above is not vacuous.
    expect(ran).toBeGreaterThan(commands.length * 0.8);
  });
});
