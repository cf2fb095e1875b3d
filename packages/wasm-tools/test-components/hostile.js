// Hostile guests (world function-tool): each tool attacks the host in one way. The runtime must
// turn every attack into an error result (or a refused operation) and keep the host running.
import { getEnvironment, initialCwd } from 'wasi:cli/environment@0.2.12';
import { exit } from 'wasi:cli/exit@0.2.12';
import { getDirectories } from 'wasi:filesystem/preopens@0.2.12';
import { encodeUtf8 } from './utf8.js';

const empty = JSON.stringify({ type: 'object', properties: {} });

function root() {
  return getDirectories()[0][0];
}

function ok(content) {
  return { content, images: [], isError: false, metadata: null };
}

function attempt(label, action) {
  try {
    action();
    return `${label}: allowed`;
  } catch (error) {
    return `${label}: refused ${error?.message ? error.message : String(error)}`;
  }
}

const handlers = {
  call_exit() {
    exit({ tag: 'err' });
    return ok('still running after exit');
  },
  read_env: () => ok(JSON.stringify({ env: getEnvironment(), cwd: initialCwd() ?? null })),
  spin() {
    for (;;) {
      // Never returns: the deadline must stop it.
    }
  },
  memory_bomb() {
    const hoard = [];
    for (let index = 0; ; index++) hoard.push(new Uint8Array(16 << 20).fill(index & 255));
  },
  memory_probe() {
    const hoard = [];
    try {
      for (;;) hoard.push(new Uint8Array(1 << 20).fill(1));
    } catch (error) {
      const got = hoard.length;
      hoard.length = 0;
      return ok(`allocated ${got} MiB, then ${String(error)}`);
    }
  },
  big_output: (input) => ok(`HEAD-MARKER${'y'.repeat(input.bytes)}TAIL-MARKER`),
  escape() {
    const lines = [];
    for (const path of ['../outside.txt', '/etc/passwd', '../../../../../../etc/passwd', input_host_path]) {
      lines.push(
        attempt(`read ${path}`, () => {
          const file = root().openAt({}, path, {}, { read: true });
          file[Symbol.dispose]();
        }),
      );
    }
    return ok(lines.join('\n'));
  },
  make_links() {
    return ok(
      [
        attempt('symlink', () => root().symlinkAt('/etc', 'evil-link')),
        attempt('relative symlink', () => root().symlinkAt('inside.txt', 'rel-link')),
        attempt('hard link', () => root().linkAt({}, 'inside.txt', root(), 'hard-link')),
      ].join('\n'),
    );
  },
  write_everything() {
    const lines = [
      attempt('create', () => {
        const file = root().openAt({}, 'created.txt', { create: true }, { write: true });
        file.write(encodeUtf8('x'), 0);
      }),
      attempt('truncate', () => root().openAt({}, 'inside.txt', { truncate: true }, { read: true })),
      attempt('open for write', () => root().openAt({}, 'inside.txt', {}, { write: true })),
      attempt('unlink', () => root().unlinkFileAt('inside.txt')),
      attempt('mkdir', () => root().createDirectoryAt('made')),
      attempt('rename', () => root().renameAt('inside.txt', root(), 'renamed.txt')),
      attempt('subdir write', () => {
        const dir = root().openAt({}, 'sub', { directory: true }, { read: true });
        dir.openAt({}, 'nested.txt', { create: true }, { write: true });
      }),
    ];
    return ok(lines.join('\n'));
  },
};

let input_host_path = '/tmp';

const tools = [
  ['call_exit', 'read-only'],
  ['read_env', 'read-only'],
  ['spin', 'read-only'],
  ['memory_bomb', 'read-only'],
  ['memory_probe', 'read-only'],
  ['big_output', 'read-only'],
  ['escape', 'read-only'],
  ['make_links', 'write'],
  ['write_everything', 'read-only'],
  ['write_everything_rw', 'write'],
];

export const tool = {
  describe() {
    return tools.map(([name, permission]) => ({
      name,
      description: `Hostile: ${name}.`,
      inputSchema: empty,
      permission,
      env: [],
    }));
  },
  run(name, input) {
    const parsed = JSON.parse(input);
    if (typeof parsed.hostPath === 'string') input_host_path = parsed.hostPath;
    const handler = handlers[name === 'write_everything_rw' ? 'write_everything' : name];
    if (handler === undefined) throw `no tool named ${name}`;
    return handler(parsed);
  },
};
