// A function component (world function-tool) for the runtime tests: echo, file read/write/list
// under the preopened root, a counter kept in a module global, and a declared env variable.
import { getEnvironment } from 'wasi:cli/environment@0.2.12';
import { getDirectories } from 'wasi:filesystem/preopens@0.2.12';
import { decodeUtf8, encodeUtf8 } from './utf8.js';

const object = (properties, required = []) => JSON.stringify({ type: 'object', properties, required });
let calls = 0;

function root() {
  return getDirectories()[0][0];
}

function ok(content, metadata) {
  return { content, images: [], isError: false, metadata: metadata === undefined ? null : JSON.stringify(metadata) };
}

function fail(content) {
  return { content, images: [], isError: true, metadata: null };
}

const handlers = {
  echo: (input) => ok(input.text ?? '', { length: (input.text ?? '').length }),
  read_file(input) {
    const file = root().openAt({}, input.path.replace(/^\/+/, ''), {}, { read: true });
    try {
      const [bytes] = file.read(1 << 20, 0);
      return ok(decodeUtf8(bytes));
    } finally {
      file[Symbol.dispose]();
    }
  },
  write_file(input) {
    const file = root().openAt({}, input.path.replace(/^\/+/, ''), { create: true, truncate: true }, { write: true });
    try {
      file.write(encodeUtf8(input.content), 0);
      return ok(`wrote ${input.path}`);
    } finally {
      file[Symbol.dispose]();
    }
  },
  list() {
    const dir = root().openAt({}, '.', { directory: true }, { read: true });
    const entries = dir.readDirectory();
    const names = [];
    let entry = entries.readDirectoryEntry();
    while (entry !== undefined && entry !== null) {
      names.push(entry.name);
      entry = entries.readDirectoryEntry();
    }
    entries[Symbol.dispose]();
    dir[Symbol.dispose]();
    return ok(names.sort().join('\n'));
  },
  counter: () => ok(String(++calls)),
  env: () => ok(JSON.stringify(getEnvironment())),
  image: () => ({
    content: 'an image',
    images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }],
    isError: false,
    metadata: null,
  }),
};

export const tool = {
  describe() {
    return [
      {
        name: 'echo',
        description: 'Echo text.',
        inputSchema: object({ text: { type: 'string' } }),
        permission: 'read-only',
        env: [],
      },
      {
        name: 'read_file',
        description: 'Read a file.',
        inputSchema: object({ path: { type: 'string' } }, ['path']),
        permission: 'read-only',
        env: [],
      },
      {
        name: 'write_file',
        description: 'Write a file.',
        inputSchema: object({ path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']),
        permission: 'write',
        env: [],
      },
      { name: 'list', description: 'List the root.', inputSchema: object({}), permission: 'read-only', env: [] },
      { name: 'counter', description: 'Count calls.', inputSchema: object({}), permission: 'read-only', env: [] },
      {
        name: 'env',
        description: 'Show the environment.',
        inputSchema: object({}),
        permission: 'read-only',
        env: ['BOXAGNTS_TEST_VISIBLE'],
      },
      { name: 'image', description: 'Return an image.', inputSchema: object({}), permission: 'read-only', env: [] },
    ];
  },
  run(name, input) {
    const handler = handlers[name];
    if (handler === undefined) throw `no tool named ${name}`;
    try {
      return handler(JSON.parse(input));
    } catch (error) {
      return fail(`${name} failed: ${error?.message ? error.message : String(error)}`);
    }
  },
};
