// A command component (world command-tool: a wasi:cli/run program), the kind built outside this
// package: it echoes its argv and reads the file named by --file under `/`. Extra flags drive
// the runtime tests: --stderr TEXT, --exit-code N, --fail, --big-mb N, --plain TEXT, --show-env.
import { getArguments, getEnvironment } from 'wasi:cli/environment@0.2.12';
import { exit } from 'wasi:cli/exit@0.2.12';
import { getStderr } from 'wasi:cli/stderr@0.2.12';
import { getStdout } from 'wasi:cli/stdout@0.2.12';
import { getDirectories } from 'wasi:filesystem/preopens@0.2.12';
import { decodeUtf8, encodeUtf8 } from './utf8.js';

function flag(argv, name) {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

function readFile(path) {
  const [[root]] = getDirectories();
  const file = root.openAt({}, path.replace(/^\/+/, ''), {}, { read: true });
  try {
    const [bytes] = file.read(1 << 20, 0);
    return decodeUtf8(bytes);
  } finally {
    file[Symbol.dispose]();
  }
}

export const run = {
  run() {
    const argv = getArguments();
    const out = getStdout();
    const stderr = flag(argv, '--stderr');
    if (stderr !== undefined) getStderr().blockingWriteAndFlush(encodeUtf8(stderr));
    const exitCode = flag(argv, '--exit-code');
    if (exitCode !== undefined) exit(exitCode === '0' ? { tag: 'ok' } : { tag: 'err' });
    if (argv.includes('--fail')) throw 'failed on purpose';
    const big = flag(argv, '--big-mb');
    if (big !== undefined) {
      const chunk = new Uint8Array(1 << 20).fill(122);
      out.blockingWriteAndFlush(encodeUtf8('HEAD-MARKER'));
      for (let index = 0; index < Number(big); index++) out.blockingWriteAndFlush(chunk);
      out.blockingWriteAndFlush(encodeUtf8('TAIL-MARKER'));
      return;
    }
    if (argv.includes('--show-env')) {
      out.blockingWriteAndFlush(encodeUtf8(JSON.stringify(getEnvironment())));
      return;
    }
    const plain = flag(argv, '--plain');
    if (plain !== undefined) {
      out.blockingWriteAndFlush(encodeUtf8(plain));
      return;
    }
    const file = flag(argv, '--file');
    let content = `argv=${JSON.stringify(argv)}`;
    if (file !== undefined) {
      try {
        content += `\nfile=${readFile(file)}`;
      } catch (error) {
        out.blockingWriteAndFlush(
          encodeUtf8(JSON.stringify({ content: `cannot read ${file}: ${error.message}`, is_error: true })),
        );
        return;
      }
    }
    out.blockingWriteAndFlush(encodeUtf8(JSON.stringify({ content, metadata: { argc: argv.length } })));
  },
};
