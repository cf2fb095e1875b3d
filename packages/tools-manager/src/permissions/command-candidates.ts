import { type CommandWord, parseCommand, type SimpleCommand } from './parse-command.js';

/**
 * Environment variables an allow rule may see past (`CI=1 npm test` is matched as `npm test`):
 * they change output, not what runs. Others (`PATH`, `LD_PRELOAD`, `NODE_OPTIONS`, ...) can change
 * what a command does, so a command starting with them must be allowed as written.
 */
export const HARMLESS_ENVIRONMENT_VARIABLES: ReadonlySet<string> = new Set([
  'CI',
  'COLUMNS',
  'DEBUG',
  'FORCE_COLOR',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'LINES',
  'NODE_ENV',
  'NO_COLOR',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONUNBUFFERED',
  'RUST_BACKTRACE',
  'RUST_LOG',
  'TERM',
  'TZ',
]);

/** Wrappers that run the command after them; deny and ask rules look through them. */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'command',
  'builtin',
  'exec',
  'nohup',
  'time',
  'nice',
  'timeout',
  'xargs',
  'stdbuf',
]);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const MAX_SCRIPT_DEPTH = 3;
const MAX_WRAPPER_DEPTH = 3;
const WRAPPER_LOOKAHEAD = 4;

/**
 * The texts an allow rule is matched against for one simple command: as written, and without
 * leading assignments of {@link HARMLESS_ENVIRONMENT_VARIABLES}.
 */
export function allowCandidates(part: SimpleCommand): string[] {
  const candidates = [part.text];
  let count = 0;
  while (count < part.words.length && isHarmlessAssignment(part.words[count] as CommandWord)) count++;
  if (count > 0 && count < part.words.length) {
    const prefix = `${part.words
      .slice(0, count)
      .map((word) => word.raw)
      .join(' ')} `;
    if (part.text.startsWith(prefix)) candidates.push(part.text.slice(prefix.length));
  }
  return candidates;
}

/**
 * The texts deny and ask rules are matched against for one simple command, as broad as is useful:
 * as written; without quotes and escapes; without leading variable assignments and grouping
 * characters; looking through wrappers such as `sudo`, `env`, `timeout` or `xargs` (every later
 * word that is not an option may be the command they run); with the program's directory dropped
 * (`/bin/rm` -> `rm`); and the commands inside `sh -c '...'` and `eval ...`.
 */
export function denyCandidates(part: SimpleCommand, depth = 0): string[] {
  const candidates = new Set<string>([part.text]);
  const words = part.words.map((word) => word.value);
  candidates.add(words.join(' '));
  for (const start of commandStarts(words, 0)) {
    candidates.add(start.join(' '));
    const program = start[0] as string;
    const base = program.slice(program.lastIndexOf('/') + 1);
    candidates.add([base, ...start.slice(1)].join(' '));
    if (depth >= MAX_SCRIPT_DEPTH) continue;
    for (const script of innerScripts(base, start.slice(1))) {
      const parsed = parseCommand(script);
      for (const inner of [...parsed.parts, ...parsed.nested]) {
        for (const candidate of denyCandidates(inner, depth + 1)) candidates.add(candidate);
      }
    }
  }
  return [...candidates].filter((candidate) => candidate !== '');
}

function isHarmlessAssignment(word: CommandWord): boolean {
  const match = ASSIGNMENT.exec(word.raw);
  if (match === null) return false;
  const name = match[0].replace(/\+?=$/, '');
  return HARMLESS_ENVIRONMENT_VARIABLES.has(name);
}

/**
 * Where the command may start: after assignments and `(`/`{`/`!`, and, behind a wrapper, at any of
 * the next few words that is not an option (an option's value and the command look alike).
 */
function commandStarts(words: readonly string[], depth: number): string[][] {
  const rest = [...words];
  for (;;) {
    const first = rest[0];
    if (first === undefined) return [];
    const ungrouped = first.replace(/^[({!]+/, '');
    if (ungrouped === '') rest.shift();
    else if (ungrouped !== first) rest[0] = ungrouped;
    else if (ASSIGNMENT.test(first)) rest.shift();
    else break;
  }
  const last = rest.length - 1;
  rest[last] = (rest[last] as string).replace(/[)}]+$/, '');
  if (rest[last] === '' && last > 0) rest.pop();
  const starts = [rest];
  const program = rest[0] as string;
  if (WRAPPERS.has(program.slice(program.lastIndexOf('/') + 1)) && depth < MAX_WRAPPER_DEPTH) {
    for (let index = 1; index < rest.length && index <= WRAPPER_LOOKAHEAD; index++) {
      if (!(rest[index] as string).startsWith('-')) starts.push(...commandStarts(rest.slice(index), depth + 1));
    }
  }
  return starts;
}

/** The script given to `sh -c` (and other shells) or `eval`. */
function innerScripts(program: string, args: readonly string[]): string[] {
  if (program === 'eval') return args.length > 0 ? [args.join(' ')] : [];
  if (!SHELLS.has(program)) return [];
  const scripts: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(arg) && index + 1 < args.length) scripts.push(args[index + 1] as string);
  }
  return scripts;
}
