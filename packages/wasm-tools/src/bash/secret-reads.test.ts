import { link, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText, type ToolContext } from '@boxagnts/tools';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../index.js';

// Every way just-bash offers to read, copy, move, link or pack a file, aimed at the workspace's
// secrets file. The key must never reach the output, and no copy of it may appear anywhere.

const KEY = 'sk-secret-9f3b1c7e42';
const SECRET_JSON = `{"anthropic":"${KEY}"}\n`;

let base: string;
let root: string;
const bash = createBashTool();

function context(): ToolContext {
  return { root, signal: new AbortController().signal, sessionId: 's', turnId: 't', toolCallId: 'c' };
}

async function filesHoldingKey(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (path === join(root, '.boxagnts', 'secrets.json')) continue;
    const text = await readFile(path);
    // tar and gzip output is binary: look for the key as bytes.
    if (text.includes(KEY) || text.toString('latin1').includes(KEY)) found.push(path);
  }
  return found;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'bash-secret-')));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

beforeEach(async () => {
  root = join(base, `root-${Math.random().toString(36).slice(2)}`);
  await mkdir(join(root, '.boxagnts'), { recursive: true });
  await writeFile(join(root, '.boxagnts', 'secrets.json'), SECRET_JSON);
  await writeFile(join(root, '.boxagnts', 'notes.txt'), 'not a secret\n');
  await writeFile(join(root, 'a.txt'), 'alpha\n');
});

const ATTACKS: readonly string[] = [
  'cp .boxagnts/secrets.json x && cat x',
  'cp .boxagnts/secrets.json . ; cat secrets.json',
  'cp -r .boxagnts copy && cat copy/secrets.json',
  'cp -a .boxagnts copy2; cat copy2/*',
  'cp -R .boxagnts/ /tmp/b && cat /tmp/b/secrets.json',
  'cp .boxagnts/secrets.json /tmp/s && cat /tmp/s',
  'cp .boxagnts/* dest/ 2>/dev/null; mkdir dest; cp .boxagnts/* dest/; cat dest/*',
  'cp .boxagnts/s*.json y; cat y',
  'cp -r . /tmp/all; cat /tmp/all/.boxagnts/secrets.json',
  'mkdir sub; cp -r . sub/all; cat sub/all/.boxagnts/secrets.json',
  'cp -r "$PWD" /tmp/abs; cat /tmp/abs/.boxagnts/secrets.json',
  'cp -r .boxagnts/. flat; cat flat/secrets.json',
  'find .boxagnts -type f -exec cp {} /tmp/ \\; ; cat /tmp/secrets.json',
  'xargs -I{} cp {} leaked <<< .boxagnts/secrets.json; cat leaked',
  'mv .boxagnts/secrets.json moved; cat moved',
  'mv .boxagnts renamed; cat renamed/secrets.json',
  'mv .boxagnts/secrets.json /tmp/m; cat /tmp/m',
  'ln .boxagnts/secrets.json hard; cat hard',
  'ln -s .boxagnts/secrets.json soft; cat soft',
  'ln -s "$PWD/.boxagnts" dir-link; cat dir-link/secrets.json',
  'tar -cf pack.tar .boxagnts; tar -xOf pack.tar',
  'tar -czf pack.tgz .boxagnts/secrets.json; tar -xzOf pack.tgz',
  'tar -cf - .boxagnts | tar -xOf -',
  'tar -cf - . | tar -xOf -',
  'gzip -c .boxagnts/secrets.json | gunzip -c',
  'gzip -k .boxagnts/secrets.json; zcat .boxagnts/secrets.json.gz',
  'cat .boxagnts/secrets.json',
  'cat .boxagnts/*.json',
  'cat .boxagnts/*',
  'cat ./.boxagnts/../.boxagnts/secrets.json',
  'cat "$PWD/.boxagnts/secrets.json"',
  'cat .BOXAGNTS/SECRETS.JSON',
  'cd .boxagnts && cat secrets.json',
  'cat < .boxagnts/secrets.json',
  'while read -r line; do echo "$line"; done < .boxagnts/secrets.json',
  'exec 3< .boxagnts/secrets.json; cat <&3',
  'echo "$(< .boxagnts/secrets.json)"',
  'x=$(cat .boxagnts/secrets.json); echo "$x"',
  'source .boxagnts/secrets.json',
  '. .boxagnts/secrets.json',
  'bash .boxagnts/secrets.json',
  'grep -r sk- .',
  'grep -r . .boxagnts',
  'rg sk-',
  'rg --no-ignore --hidden sk- .',
  'find . -name secrets.json -exec cat {} \\;',
  'find . -type f | xargs cat',
  'find . -type f -print0 | xargs -0 cat',
  'sed -n p .boxagnts/secrets.json',
  'sed "s/x/y/" .boxagnts/secrets.json',
  'awk "{print}" .boxagnts/secrets.json',
  'awk "{ while ((getline line < \\".boxagnts/secrets.json\\") > 0) print line }" a.txt',
  'head .boxagnts/secrets.json; tail .boxagnts/secrets.json',
  'base64 .boxagnts/secrets.json | base64 -d',
  'od -c .boxagnts/secrets.json',
  'strings .boxagnts/secrets.json',
  'diff .boxagnts/secrets.json a.txt',
  'comm .boxagnts/secrets.json a.txt',
  'join .boxagnts/secrets.json a.txt',
  'paste .boxagnts/secrets.json',
  'sort .boxagnts/secrets.json; uniq .boxagnts/secrets.json; tac .boxagnts/secrets.json',
  'nl .boxagnts/secrets.json; rev .boxagnts/secrets.json | rev; fold .boxagnts/secrets.json',
  'cut -c1-200 .boxagnts/secrets.json; expand .boxagnts/secrets.json; column .boxagnts/secrets.json',
  'tr a a < .boxagnts/secrets.json; wc .boxagnts/secrets.json',
  'jq . .boxagnts/secrets.json',
  'jq -r .anthropic .boxagnts/secrets.json',
  'yq . .boxagnts/secrets.json',
  'xan view .boxagnts/secrets.json',
  'split -b 5 .boxagnts/secrets.json part-; cat part-*',
  'tee copy.txt < .boxagnts/secrets.json',
  'file .boxagnts/secrets.json',
  'html-to-markdown .boxagnts/secrets.json',
  'sqlite3 .boxagnts/secrets.json .dump',
  'md5sum .boxagnts/secrets.json > /dev/null; cat .boxagnts/secrets.json',
];

describe('simulated bash: no command reads the secrets file', () => {
  it.each(ATTACKS)('%s', async (command) => {
    const result = await bash.execute({ command }, context());
    expect(resultText(result)).not.toContain(KEY);
    expect(resultText(result)).not.toContain('sk-secret');
    expect(await filesHoldingKey(root)).toEqual([]);
    expect(await readFile(join(root, '.boxagnts', 'secrets.json'), 'utf8')).toBe(SECRET_JSON);
  });

  it('still copies, moves and packs ordinary files', async () => {
    const result = await bash.execute(
      {
        command:
          'cp a.txt b.txt && mv b.txt c.txt && cp -r .boxagnts/notes.txt n.txt && tar -cf p.tar a.txt && tar -tf p.tar && cat c.txt n.txt',
      },
      context(),
    );
    expect(resultText(result)).toBe('stdout:\na.txt\nalpha\nnot a secret\n\nexit code: 0');
  });

  it('refuses a folder copy that holds the secret, and a hard link to it planted from outside', async () => {
    await link(join(root, '.boxagnts', 'secrets.json'), join(root, 'planted'));
    const result = await bash.execute({ command: 'cat planted; cp planted p2; cat p2' }, context());
    expect(resultText(result)).not.toContain(KEY);
    const folder = await bash.execute({ command: 'cp -r .boxagnts elsewhere' }, context());
    expect(resultText(folder)).toContain('secret');
    await expect(stat(join(root, 'elsewhere', 'secrets.json'))).rejects.toThrow(/ENOENT/);
  });
});
