import { describe, expect, it } from 'vitest';
import { allowCandidates, denyCandidates } from './command-candidates.js';
import { parseCommand, type SimpleCommand } from './parse-command.js';

function onlyPart(command: string): SimpleCommand {
  const { parts } = parseCommand(command);
  expect(parts).toHaveLength(1);
  return parts[0] as SimpleCommand;
}

describe('allowCandidates', () => {
  it('sees past harmless environment assignments only', () => {
    expect(allowCandidates(onlyPart('CI=1 NODE_ENV=test npm test'))).toEqual([
      'CI=1 NODE_ENV=test npm test',
      'npm test',
    ]);
    expect(allowCandidates(onlyPart('FORCE_COLOR="1" npm test'))).toEqual(['FORCE_COLOR="1" npm test', 'npm test']);
    expect(allowCandidates(onlyPart('PATH=/tmp/evil npm test'))).toEqual(['PATH=/tmp/evil npm test']);
    expect(allowCandidates(onlyPart('NODE_OPTIONS=--require=./x.js npm test'))).toEqual([
      'NODE_OPTIONS=--require=./x.js npm test',
    ]);
    expect(allowCandidates(onlyPart('CI=1 LD_PRELOAD=x.so npm test'))).not.toContain('npm test');
  });

  it('an assignment alone is not stripped to nothing', () => {
    expect(allowCandidates(onlyPart('CI=1'))).toEqual(['CI=1']);
  });
});

describe('denyCandidates', () => {
  const candidates = (command: string): string[] => denyCandidates(onlyPart(command));

  it('include the text as written and without quotes', () => {
    expect(candidates(`"r"'m' -rf /`)).toEqual(expect.arrayContaining([`"r"'m' -rf /`, 'rm -rf /']));
    expect(candidates('\\rm -rf /')).toContain('rm -rf /');
  });

  it('look past any environment assignment and grouping', () => {
    expect(candidates('PATH=/x FOO=1 rm -rf /')).toContain('rm -rf /');
    expect(candidates('! rm -rf /')).toContain('rm -rf /');
    // Groups and subshells are the shell's own syntax: their commands are parts of their own.
    expect(parseCommand('(rm -rf /)').parts.map((part) => part.text)).toEqual(['rm -rf /']);
    expect(parseCommand('{ rm -rf /; }').parts.map((part) => part.text)).toEqual(['rm -rf /']);
  });

  it('look through wrappers and their options', () => {
    for (const command of [
      'sudo rm -rf /',
      'sudo -u root rm -rf /',
      'env -i rm -rf /',
      'env FOO=1 rm -rf /',
      'timeout 10 rm -rf /',
      'nice -n 5 rm -rf /',
      'nohup rm -rf /',
      'xargs -n 1 rm -rf /',
      'command rm -rf /',
      'exec rm -rf /',
      'sudo timeout 5 rm -rf /',
      '/usr/bin/sudo rm -rf /',
    ]) {
      expect(candidates(command), command).toContain('rm -rf /');
    }
  });

  it('drop the program directory', () => {
    expect(candidates('/bin/rm -rf /')).toContain('rm -rf /');
    expect(candidates('./node_modules/.bin/vitest run')).toContain('vitest run');
  });

  it('read the scripts of `sh -c` and `eval`', () => {
    expect(candidates(`bash -c 'cd / && rm -rf /'`)).toEqual(expect.arrayContaining(['cd /', 'rm -rf /']));
    expect(candidates(`sh -lc "rm -rf /"`)).toContain('rm -rf /');
    expect(candidates(`eval "rm -rf /"`)).toContain('rm -rf /');
    expect(candidates(`bash -c "bash -c 'rm -rf /'"`)).toContain('rm -rf /');
  });

  it('do not invent commands out of plain arguments', () => {
    expect(candidates('git rm file.txt')).not.toContain('rm file.txt');
    expect(candidates('echo rm -rf /')).not.toContain('rm -rf /');
  });
});
