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
  'busybox',
  'su',
  'chroot',
  'unbuffer',
  'setsid',
  'flock',
  'ionice',
  'taskset',
  'watch',
]);
/** `find` actions that run the command after them. */
const FIND_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh']);
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
 * (`/bin/rm` -> `rm`); the command after `find -exec`; and the commands inside `sh -c '...'`,
 * `su -c`, `env -S`, `trap '...'` and `eval ...`.
 */
export function denyCandidates(part: SimpleCommand, depth = 0): string[] {
  return [...reading(part, depth).texts].filter((candidate) => candidate !== '');
}

/** One reading per part: deny texts and the unknown-program check share it. */
const readings = new WeakMap<SimpleCommand, CommandReading>();

function reading(part: SimpleCommand, depth: number): CommandReading {
  if (depth !== 0) return readCommand(part, depth);
  let cached = readings.get(part);
  if (cached === undefined) {
    cached = readCommand(part, depth);
    readings.set(part, cached);
  }
  return cached;
}

/**
 * Why a deny or ask rule cannot rule a command out: the program it runs (directly, behind a
 * wrapper, or in the script of `sh -c`/`eval`) is only known at run time. Undefined when every
 * program the command may run is named in its text.
 */
export function unknownProgram(part: SimpleCommand, depth = 0): string | undefined {
  return reading(part, depth).unknown;
}

interface CommandReading {
  texts: Set<string>;
  unknown?: string;
}

function readCommand(part: SimpleCommand, depth: number): CommandReading {
  const reading: CommandReading = { texts: new Set<string>([part.text]) };
  if (part.unknownProgram !== undefined) reading.unknown = part.unknownProgram;
  reading.texts.add(part.words.map((word) => word.value).join(' '));
  for (const start of commandStarts(part.words, 0)) {
    const values = start.map((word) => word.value);
    reading.texts.add(values.join(' '));
    const program = start[0] as CommandWord;
    if (program.dynamic === true && program.staticTail === undefined) {
      reading.unknown ??= program.raw;
      continue;
    }
    const base =
      program.dynamic === true
        ? (program.staticTail as string)
        : program.value.slice(program.value.lastIndexOf('/') + 1);
    reading.texts.add([base, ...values.slice(1)].join(' '));
    if (depth >= MAX_SCRIPT_DEPTH) continue;
    for (const script of innerScripts(base, start.slice(1))) {
      if (script === undefined) {
        reading.unknown ??= start.map((word) => word.raw).join(' ');
        continue;
      }
      const parsed = parseCommand(script);
      for (const inner of [...parsed.parts, ...parsed.nested]) {
        const innerReading = readCommand(inner, depth + 1);
        for (const candidate of innerReading.texts) reading.texts.add(candidate);
        if (innerReading.unknown !== undefined) reading.unknown ??= innerReading.unknown;
      }
    }
  }
  return reading;
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
function commandStarts(words: readonly CommandWord[], depth: number): CommandWord[][] {
  const rest = [...words];
  while (rest[0] !== undefined && ASSIGNMENT.test(rest[0].raw)) rest.shift();
  if (rest.length === 0) return [];
  const starts = [rest];
  const program = rest[0] as CommandWord;
  const base = program.value.slice(program.value.lastIndexOf('/') + 1);
  if (depth >= MAX_WRAPPER_DEPTH) return starts;
  if (WRAPPERS.has(base)) {
    for (let index = 1; index < rest.length && index <= WRAPPER_LOOKAHEAD; index++) {
      if (!(rest[index] as CommandWord).value.startsWith('-'))
        starts.push(...commandStarts(rest.slice(index), depth + 1));
    }
  }
  if (base === 'find') {
    for (let index = 1; index < rest.length - 1; index++) {
      if (FIND_ACTIONS.has((rest[index] as CommandWord).value))
        starts.push(...commandStarts(rest.slice(index + 1), depth + 1));
    }
  }
  return starts;
}

/**
 * The scripts a program runs from its arguments: `sh -c` (and other shells), `su -c`, `eval`,
 * `trap` and `env -S`. `undefined` stands for a script computed at run time (`eval "$x"`).
 */
function innerScripts(program: string, args: readonly CommandWord[]): Array<string | undefined> {
  const text = (words: readonly CommandWord[]): string | undefined =>
    words.some((word) => word.dynamic === true) ? undefined : words.map((word) => word.value).join(' ');
  if (program === 'eval') return args.length > 0 ? [text(args)] : [];
  if (program === 'trap')
    return args.length > 1 && !(args[0] as CommandWord).value.startsWith('-') ? [text(args.slice(0, 1))] : [];
  const scripts: Array<string | undefined> = [];
  for (let index = 0; index < args.length - 1; index++) {
    const arg = (args[index] as CommandWord).value;
    const runsScript =
      ((SHELLS.has(program) || program === 'su') && /^-[A-Za-z]*c[A-Za-z]*$/.test(arg)) ||
      (program === 'su' && arg === '--command') ||
      (program === 'env' && (arg === '-S' || arg === '--split-string'));
    if (runsScript) scripts.push(text(args.slice(index + 1, index + 2)));
  }
  if (program === 'env') {
    for (const arg of args) {
      const match = /^(?:-S|--split-string=)(.+)$/.exec(arg.value);
      if (match !== null) scripts.push(arg.dynamic === true ? undefined : match[1]);
    }
  }
  return scripts;
}
