import {
  parse,
  type ScriptNode,
  type SimpleCommandNode,
  type StatementNode,
  serialize,
  type WordNode,
} from 'just-bash';

/** Why a command can never be approved by an allow rule. */
export type OpaqueReason = 'substitution' | 'redirect' | 'heredoc' | 'unterminated' | 'expansion';

/** One word of a simple command: as the shell reads it (quotes kept), and with quotes and escapes removed. */
export interface CommandWord {
  raw: string;
  value: string;
  /** Part of the word is only known when the shell runs it (`$x`, `${x:-rm}`, a glob, a brace list). */
  dynamic?: boolean;
  /** For a dynamic word: the static text after its last `/`, when everything after that `/` is static (`$HOME/bin/rm`). */
  staticTail?: string;
}

/** A simple command, split into words (leading assignments first). */
export interface SimpleCommand {
  /** The command as the shell reads it, its words joined by one space (canonical quoting). */
  text: string;
  words: CommandWord[];
  /**
   * Set when the program this command runs cannot be known from the text: its name is computed
   * at run time (`$x -rf /`, `r?`, `{rm,x}`), or it is a shell reading a script from a pipe whose
   * text is not in the command. Deny and ask rules must assume it may be any program.
   */
  unknownProgram?: string;
}

/** A shell command line, parsed by the parser of the shell that runs it (just-bash). */
export interface ParsedCommand {
  /** The simple commands the line runs directly, in order, including those inside `if`, loops, groups and function bodies. */
  parts: SimpleCommand[];
  /** Simple commands inside `$(...)`, backticks, `<(...)`/`>(...)`, arithmetic and scripts handed to a shell, at any depth. */
  nested: SimpleCommand[];
  /** Constructs whose effect cannot be judged from the text; any one of them rules out allow rules. */
  opaque: OpaqueReason[];
}

type WordPart = WordNode['parts'][number];
type Redirection = SimpleCommandNode['redirections'][number];
type Assignment = SimpleCommandNode['assignments'][number];
type Into = 'parts' | 'nested';
/** What feeds a command's stdin through a pipe: a simple command, a compound one, or nothing. */
type PipeSource = SimpleCommand | 'compound' | undefined;

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh']);
const PRINTERS = new Set(['echo', 'printf']);
const SOURCE_COMMANDS = new Set(['source', '.']);
/** Characters a bare literal cannot hold without changing how the shell splits it. */
const NEEDS_QUOTES = /[\s'"\\;&|<>()`$]/;
/** Bound on scripts parsed inside scripts (a here-document given to a shell, an alias value ...). */
const MAX_SCRIPT_DEPTH = 4;

/**
 * Parses a shell command line with just-bash's parser, the parser of the shell the `bash` tool
 * runs, so the permission rules see exactly the commands the shell would run: every simple
 * command at any depth (lists, pipelines, `if`/`for`/`while`/`case`, groups, subshells, function
 * bodies), the commands inside substitutions, here-documents and here-strings given to a shell,
 * and what makes a command unjudgeable (substitutions, redirects to files, here-documents,
 * program names computed at run time, text the shell cannot parse).
 *
 * @example
 * parseCommand('npm test && rm -rf /').parts.map((part) => part.text); // ['npm test', 'rm -rf /']
 */
export function parseCommand(command: string): ParsedCommand {
  const result: ParsedCommand = { parts: [], nested: [], opaque: [] };
  const walker = new Walker(result);
  if (!walker.script(command, 'parts', 0)) result.opaque.push('unterminated');
  result.opaque = [...new Set(result.opaque)];
  return result;
}

class Walker {
  constructor(private readonly result: ParsedCommand) {}

  /** Parses and walks a script; false when the shell would refuse it as a syntax error. */
  script(source: string, into: Into, depth: number): boolean {
    let ast: ScriptNode;
    try {
      ast = parse(source);
    } catch {
      return false;
    }
    this.statements(ast.statements, into, depth);
    return true;
  }

  private statements(statements: readonly StatementNode[], into: Into, depth: number): void {
    for (const statement of statements) {
      for (const pipeline of statement.pipelines) {
        let previous: PipeSource;
        for (const command of pipeline.commands) {
          if (command.type === 'SimpleCommand') {
            previous = this.simpleCommand(command, into, depth, previous);
          } else {
            this.node(command, into, depth);
            previous = 'compound';
          }
        }
      }
    }
  }

  /** Walks any node that is not a simple command, finding statements, words and substitutions inside it. */
  private node(value: unknown, into: Into, depth: number): void {
    if (Array.isArray(value)) {
      for (const item of value) this.node(item, into, depth);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const node = value as { type?: string } & Record<string, unknown>;
    switch (node.type) {
      case 'Statement':
        this.statements([node as unknown as StatementNode], into, depth);
        return;
      case 'SimpleCommand':
        this.simpleCommand(node as unknown as SimpleCommandNode, into, depth, undefined);
        return;
      case 'Word':
        this.word(node as unknown as WordNode, depth);
        return;
      case 'Redirection':
        this.redirection(node as unknown as Redirection, depth);
        return;
      case 'ArithmeticExpansion':
      case 'ArithmeticCommand':
        // Arithmetic evaluates array subscripts, which can run commands (`a[$(rm x)]`) in bash.
        this.result.opaque.push('substitution');
        break;
      case 'ArithCommandSubst':
        this.result.opaque.push('substitution');
        if (typeof node.command === 'string' && !this.script(node.command, 'nested', depth + 1)) {
          this.result.opaque.push('unterminated');
        }
        return;
      default:
        break;
    }
    for (const key of Object.keys(node)) {
      if (key !== 'type') this.node(node[key], into, depth);
    }
  }

  /** Walks the parts of a word, collecting the commands of substitutions in it. */
  private word(word: WordNode, depth: number): void {
    for (const part of word.parts) this.wordPart(part, depth);
  }

  private wordPart(part: WordPart, depth: number): void {
    switch (part.type) {
      case 'CommandSubstitution':
      case 'ProcessSubstitution':
        this.result.opaque.push('substitution');
        this.statements(part.body.statements, 'nested', depth);
        return;
      case 'DoubleQuoted':
        for (const inner of part.parts) this.wordPart(inner, depth);
        return;
      case 'Literal':
      case 'SingleQuoted':
      case 'Escaped':
      case 'TildeExpansion':
      case 'Glob':
        return;
      default:
        // Parameter expansions (their operands), arithmetic and brace lists may hold substitutions too.
        this.node(part, 'nested', depth);
    }
  }

  private redirection(redirection: Redirection, depth: number): void {
    const target = redirection.target;
    if (target.type === 'HereDoc') {
      this.result.opaque.push('heredoc');
      this.word(target.content, depth);
      return;
    }
    this.word(target, depth);
    const operator = redirection.operator;
    if (operator === '<' || operator === '<&' || operator === '<<<') return;
    const text = staticValue(target);
    const duplicates = operator === '>&' && text !== undefined && /^(\d+|-)$/.test(text);
    const harmless = duplicates || (text === '/dev/null' && redirection.fdVariable === undefined && operator !== '<>');
    if (!harmless) this.result.opaque.push('redirect');
  }

  private simpleCommand(
    node: SimpleCommandNode,
    into: Into,
    depth: number,
    pipedFrom: PipeSource,
  ): SimpleCommand | undefined {
    const words: CommandWord[] = [];
    for (const assignment of node.assignments) {
      words.push(assignmentWord(assignment));
      if (assignment.value !== null) this.word(assignment.value, depth);
      if (assignment.array !== null) for (const item of assignment.array) this.word(item, depth);
    }
    const commandWords = node.name === null ? [] : [node.name, ...node.args];
    for (const word of commandWords) {
      words.push(commandWord(word));
      this.word(word, depth);
    }
    for (const redirection of node.redirections) this.redirection(redirection, depth);
    if (words.length === 0) return undefined;
    const part: SimpleCommand = { text: words.map((word) => word.raw).join(' '), words };
    const name = node.name === null ? undefined : words[node.assignments.length];
    if (name !== undefined) {
      const unknown = this.unknownProgram(name, words.slice(node.assignments.length), node, pipedFrom, depth);
      if (unknown !== undefined) {
        part.unknownProgram = unknown;
        this.result.opaque.push('expansion');
      }
    }
    this.result[into].push(part);
    return part;
  }

  /**
   * Why the program a command runs is unknown, or undefined when the text tells it. Also hands the
   * scripts a shell would read from a here-document, a here-string, `alias` values or an `echo`
   * piped into it to the parser, so their commands are checked too.
   */
  private unknownProgram(
    name: CommandWord,
    command: readonly CommandWord[],
    node: SimpleCommandNode,
    pipedFrom: PipeSource,
    depth: number,
  ): string | undefined {
    if (name.dynamic === true && programBase(name) === undefined) return name.raw;
    const base = programBase(name) ?? '';
    const args = command.slice(1);
    if (base === 'alias') {
      for (const arg of args) {
        const equals = arg.value.indexOf('=');
        if (equals > 0) this.innerScript(arg.value.slice(equals + 1), depth);
      }
      return undefined;
    }
    const readsStdin =
      (SHELLS.has(base) &&
        (args.some((arg) => /^-[A-Za-z]*s[A-Za-z]*$/.test(arg.value)) ||
          !args.some((arg) => /^-[A-Za-z]*c[A-Za-z]*$/.test(arg.value) || !arg.value.startsWith('-')))) ||
      (SOURCE_COMMANDS.has(base) && args.some((arg) => arg.value === '/dev/stdin' || arg.value === '-'));
    const sourcesSubstitution =
      SOURCE_COMMANDS.has(base) &&
      args.length > 0 &&
      (args[0] as CommandWord).dynamic === true &&
      (args[0] as CommandWord).raw.startsWith('<(');
    if (!readsStdin && !sourcesSubstitution) return undefined;
    // The shell reads its script from stdin: from a here-document, a here-string, or the pipe.
    let known = false;
    for (const redirection of node.redirections) {
      const target = redirection.target;
      if (target.type === 'HereDoc') {
        const text = staticValue(target.content);
        if (text === undefined) return `${base} <<${target.delimiter}`;
        this.innerScript(text, depth);
        known = true;
      } else if (redirection.operator === '<<<') {
        const text = staticValue(target);
        if (text === undefined) return `${base} <<< ${commandWord(target).raw}`;
        this.innerScript(text, depth);
        known = true;
      } else if (redirection.operator === '<') {
        return `${base} < ${commandWord(target).raw}`;
      }
    }
    if (known) return undefined;
    if (sourcesSubstitution) return `${base} ${(args[0] as CommandWord).raw}`;
    if (pipedFrom === undefined) return undefined;
    if (pipedFrom === 'compound') return `... | ${base}`;
    const printer = pipedFrom.words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word.raw));
    if (printer !== undefined && PRINTERS.has(printer.value) && pipedFrom.unknownProgram === undefined) {
      const printed = pipedFrom.words.slice(pipedFrom.words.indexOf(printer) + 1);
      const text = printedText(printer.value, printed);
      if (text !== undefined) {
        // As written, and with escapes decoded (`echo -e`, dash's echo and printf decode them).
        this.innerScript(text, depth);
        const decoded = decodeEscapes(text);
        if (decoded !== text) this.innerScript(decoded, depth);
        return undefined;
      }
    }
    return `${pipedFrom.text} | ${base}`;
  }

  /** Parses a script the shell would run (an alias value, a here-document for `sh`); its commands are nested. */
  private innerScript(text: string, depth: number): void {
    if (depth >= MAX_SCRIPT_DEPTH) {
      this.result.opaque.push('unterminated');
      return;
    }
    if (!this.script(text, 'nested', depth + 1)) this.result.opaque.push('unterminated');
  }
}

/**
 * The text `echo` or `printf` prints, when the command alone tells it: no computed word, and for
 * `printf` a format whose only directives are `%s`/`%b` (filled in order) and `%%`. Undefined otherwise.
 */
function printedText(printer: string, words: readonly CommandWord[]): string | undefined {
  if (words.some((word) => word.dynamic === true)) return undefined;
  const values = words.map((word) => word.value);
  if (printer === 'echo') return values.filter((value) => !/^-[neE]+$/.test(value)).join(' ');
  const [format, ...args] = values[0] === '--' ? values.slice(1) : values;
  if (format === undefined) return '';
  let next = 0;
  let known = true;
  const filled = format.replace(/%(.)/g, (match, directive: string) => {
    if (directive === '%') return '%';
    if (directive === 's' || directive === 'b') return args[next++] ?? '';
    known = false;
    return match;
  });
  // printf reuses the format while arguments remain: that output is not worked out here.
  if (!known || (next > 0 && next < args.length) || (next === 0 && args.length > 0)) return undefined;
  return filled;
}

/** C-style escapes as `printf`, `echo -e` and dash's `echo` print them (`\n`, `\t`, `\xHH`, `\NNN`). */
function decodeEscapes(text: string): string {
  return text.replace(/\\(x[0-9A-Fa-f]{1,2}|0?[0-7]{1,3}|.)/g, (match, sequence: string) => {
    if (sequence.startsWith('x')) return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
    if (/^[0-7]/.test(sequence)) return String.fromCharCode(Number.parseInt(sequence, 8));
    return SIMPLE_ESCAPES[sequence] ?? match;
  });
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
};

/** The word's value when no part of it is computed at run time. */
function staticValue(word: WordNode): string | undefined {
  const rendered = commandWord(word);
  return rendered.dynamic === true ? undefined : rendered.value;
}

/** The program's base name (after the last `/`) when that much is known, even if the directory is computed (`$HOME/bin/rm`). */
function programBase(word: CommandWord): string | undefined {
  if (word.dynamic !== true) return word.value.slice(word.value.lastIndexOf('/') + 1);
  return word.staticTail;
}

function assignmentWord(assignment: Assignment): CommandWord {
  const operator = assignment.append ? '+=' : '=';
  if (assignment.array !== null) {
    const items = assignment.array.map(commandWord);
    return {
      raw: `${assignment.name}${operator}(${items.map((item) => item.raw).join(' ')})`,
      value: `${assignment.name}${operator}(${items.map((item) => item.value).join(' ')})`,
      ...(items.some((item) => item.dynamic === true) ? { dynamic: true } : {}),
    };
  }
  const value = assignment.value === null ? { raw: '', value: '' } : commandWord(assignment.value);
  return {
    raw: `${assignment.name}${operator}${value.raw}`,
    value: `${assignment.name}${operator}${value.value}`,
    ...(value.dynamic === true ? { dynamic: true } : {}),
  };
}

/** Renders a word: `raw` with canonical quoting, `value` as the program would receive it when static. */
function commandWord(word: WordNode): CommandWord {
  const rendered = { raw: '', value: '', dynamic: false, tail: '' as string | undefined };
  renderParts(word.parts, false, rendered);
  if (!rendered.dynamic) return { raw: rendered.raw, value: rendered.value };
  return {
    raw: rendered.raw,
    value: rendered.value,
    dynamic: true,
    ...(rendered.tail ? { staticTail: rendered.tail } : {}),
  };
}

interface Rendering {
  raw: string;
  value: string;
  dynamic: boolean;
  /** The static text after the last `/` so far; undefined once a computed part follows the last `/`. */
  tail: string | undefined;
}

function renderParts(parts: readonly WordPart[], inDoubleQuotes: boolean, into: Rendering): void {
  const add = (raw: string, value: string, dynamic: boolean): void => {
    into.raw += raw;
    into.value += value;
    if (dynamic) {
      into.dynamic = true;
      into.tail = undefined;
      return;
    }
    const slash = value.lastIndexOf('/');
    if (slash !== -1) into.tail = value.slice(slash + 1);
    else if (into.tail !== undefined) into.tail += value;
  };
  for (const part of parts) {
    switch (part.type) {
      case 'Literal':
        if (inDoubleQuotes) add(part.value.replace(/["\\$`]/g, '\\$&'), part.value, false);
        else add(NEEDS_QUOTES.test(part.value) ? quote(part.value) : part.value, part.value, false);
        break;
      case 'SingleQuoted':
        add(quote(part.value), part.value, false);
        break;
      case 'Escaped':
        add(`\\${part.value}`, part.value, false);
        break;
      case 'DoubleQuoted':
        into.raw += '"';
        renderParts(part.parts, true, into);
        into.raw += '"';
        break;
      case 'TildeExpansion':
        add(`~${part.user ?? ''}`, `~${part.user ?? ''}`, false);
        break;
      default: {
        const text = serializePart(part);
        add(text, text, true);
      }
    }
  }
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A computed word part as the shell would print it (`$x`, `${x:-rm}`, `$(...)`, `{a,b}`, `*`). */
function serializePart(part: WordPart): string {
  const word: WordNode = { type: 'Word', parts: [part] };
  return serialize({
    type: 'Script',
    statements: [
      {
        type: 'Statement',
        pipelines: [
          {
            type: 'Pipeline',
            commands: [{ type: 'SimpleCommand', assignments: [], name: word, args: [], redirections: [] }],
            negated: false,
          },
        ],
        operators: [],
        background: false,
      },
    ],
  });
}
