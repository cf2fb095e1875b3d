import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseCommand } from '../permissions/parse-command.js';
import { realRoot, resolveRealPath } from '../permissions/real-path.js';
import type { CommandHook } from '../types.js';

/** Where a command hook would run, or why it must not run at all. */
export type HookLocation = { ok: true; cwd: string } | { ok: false; message: string };

/** System folders whose files are never treated as hook files a sandboxed tool could have linked. */
const SYSTEM_PREFIXES = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/', '/etc/alternatives/'];

/**
 * The working folder of a command hook: its `cwd` (relative to the host process's working folder),
 * by default the host process's working folder. Never the call's root: the host does not run code
 * from where the agents write.
 */
export function hookWorkingFolder(hook: Pick<CommandHook, 'cwd'>, hostCwd: string = process.cwd()): string {
  return path.resolve(hostCwd, hook.cwd ?? '.');
}

/**
 * Checks that a command hook runs nothing from the agents' roots: its working folder, and every
 * literal path its command names (`./hooks/check.sh`, `sh hooks/x.sh`, `/abs/path`, anything that
 * exists relative to the working folder), must lie outside every root once symbolic links are
 * followed; a named file must not have other hard links (one could sit inside a root) unless it
 * is a system file or not writable by this process. Paths the shell builds at run time (variables,
 * substitutions) cannot be judged from the text and are the configuration's own responsibility.
 *
 * @example
 * checkHookLocation({ command: './hooks/check.sh', cwd: '/srv/agent/root' }, ['/srv/agent/root']);
 * // { ok: false, message: 'its working folder /srv/agent/root lies inside the agents\' root ...' }
 */
export function checkHookLocation(
  hook: Pick<CommandHook, 'command' | 'cwd'>,
  roots: readonly string[],
  hostCwd: string = process.cwd(),
): HookLocation {
  const cwd = hookWorkingFolder(hook, hostCwd);
  const realRoots = [...new Set(roots.filter((root) => root !== '').map((root) => realRoot(path.resolve(root))))];
  const realCwd = resolveRealPath(cwd);
  const cwdRoot = realCwd === undefined ? cwd : insideAny(realCwd, realRoots);
  if (realCwd === undefined || cwdRoot !== undefined) {
    return {
      ok: false,
      message:
        `its working folder ${cwd} lies inside the agents' root ${cwdRoot ?? '(unresolvable links)'}, where sandboxed tools can write; ` +
        "give the hook a `cwd` outside every agents' root (e.g. the folder holding your configuration)",
    };
  }
  for (const word of pathWords(hook.command)) {
    const absolute = word.startsWith('~/') ? path.join(homedir(), word.slice(2)) : path.resolve(cwd, word);
    const real = resolveRealPath(absolute);
    const root = real === undefined ? absolute : insideAny(real, realRoots);
    if (real === undefined || root !== undefined) {
      return {
        ok: false,
        message:
          `its command names ${word}, which ${real === undefined ? 'cannot be resolved (a link loop)' : `resolves to ${real} inside the agents' root ${root}`}, ` +
          "where sandboxed tools can write; keep hook scripts outside every agents' root",
      };
    }
    if (hasOtherWritableLinks(real)) {
      return {
        ok: false,
        message: `its command names ${word} (${real}), a file with more than one hard link, which may sit inside an agents' root; give the hook a copy of its own`,
      };
    }
  }
  return { ok: true, cwd };
}

/** How deep words that are scripts themselves (`sh -c '...'`, `eval "..."`) are read again as commands. */
const MAX_SCRIPT_DEPTH = 4;

/**
 * The literal words of a command that may name files: anything with a `/` or a leading `.`, and
 * every other word as an entry of the working folder. A word that is itself a script (it holds
 * blanks or shell operators, as the argument of `sh -c` or `eval` does) is read again as a command.
 */
function pathWords(command: string, depth = 0, words: Set<string> = new Set()): Set<string> {
  const parsed = parseCommand(command);
  if (parsed.opaque.includes('unterminated')) {
    // Text the parser refuses (bash may still run it, e.g. `coproc ./x.sh`): every piece may be a file.
    for (const piece of command.split(/[\s;&|<>(){}`'"$]+/)) {
      if (piece !== '' && !piece.startsWith('-') && !piece.includes('\0')) {
        words.add(piece.includes('/') || piece.startsWith('.') || piece.startsWith('~') ? piece : `./${piece}`);
      }
    }
  }
  for (const part of [...parsed.parts, ...parsed.nested]) {
    for (const word of part.words) {
      const value = word.value.replace(/^[A-Za-z_][A-Za-z0-9_]*=/, '');
      if (value === '' || value.includes('\0')) continue;
      if (/[\s;&|<>()`$]/.test(value)) {
        if (depth < MAX_SCRIPT_DEPTH) pathWords(value, depth + 1, words);
        continue;
      }
      if (value.startsWith('-')) {
        // `--config=./x.sh`: the part after `=` may be a file.
        const assigned = value.indexOf('=');
        if (assigned > 0 && assigned < value.length - 1) words.add(value.slice(assigned + 1));
        continue;
      }
      words.add(value.includes('/') || value.startsWith('.') || value.startsWith('~') ? value : `./${value}`);
    }
  }
  return words;
}

function insideAny(real: string, roots: readonly string[]): string | undefined {
  return roots.find((root) => {
    const relative = path.relative(root, real);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  });
}

function hasOtherWritableLinks(real: string): boolean {
  if (SYSTEM_PREFIXES.some((prefix) => real.startsWith(prefix))) return false;
  try {
    const stats = statSync(real);
    if (!stats.isFile() || stats.nlink <= 1) return false;
    accessSync(real, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
