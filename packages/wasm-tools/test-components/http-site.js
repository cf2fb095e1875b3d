// Built with componentize-js (StarlingMonkey) by src/runtime/http-components.test-support.ts: a
// `wasi:http/incoming-handler` component like BoxAgnts' static site server. It serves the files
// of the folder preopened at `/`, with a content type by file extension, 404 for what it cannot
// open (it checks no path itself: see answer()), and basic auth when `wasi:config/store` holds a `username` and `password`.
// It implements the handler on wasi:http's resources, not through the engine's fetch event: an
// instance that has answered one fetch event never answers another (StarlingMonkey issue 247),
// and a host may serve many requests from one instance.
import { get } from 'wasi:config/store@0.2.0-draft';
import { getDirectories } from 'wasi:filesystem/preopens@0.2.10';
import { Fields, OutgoingBody, OutgoingResponse, ResponseOutparam } from 'wasi:http/types@0.2.10';

const TYPES = { html: 'text/html; charset=utf-8', css: 'text/css; charset=utf-8', js: 'text/javascript' };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function readFile(path) {
  const [[root]] = getDirectories();
  const file = root.openAt({}, path, {}, { read: true });
  const size = file.stat().size;
  const [bytes] = file.read(size, 0n);
  return bytes;
}

function authorised(request) {
  const username = get('username');
  const password = get('password');
  if (username === undefined || password === undefined) return true;
  const values = request.headers().get('authorization');
  const expected = `Basic ${btoa(`${username}:${password}`)}`;
  return values.length === 1 && decoder.decode(values[0]) === expected;
}

function answer(request) {
  if (!authorised(request)) {
    return { status: 401, type: 'text/plain', body: encoder.encode('Authentication required.') };
  }
  // Naive on purpose: the decoded path goes to the filesystem as it is (`..%2f..%2fetc%2fpasswd`
  // included), so the tests see the host's path policy, not this guest, keep the site's files in.
  let path = decodeURIComponent((request.pathWithQuery() ?? '/').split('?')[0]).replace(/^\/+/, '');
  if (path === '') path = 'index.html';
  try {
    const body = readFile(path);
    const extension = path.split('.').at(-1);
    return { status: 200, type: TYPES[extension] ?? 'application/octet-stream', body };
  } catch {
    return { status: 404, type: 'text/plain', body: encoder.encode('Not found.') };
  }
}

export const incomingHandler = {
  handle(request, responseOut) {
    const { status, type, body } = answer(request);
    const response = new OutgoingResponse(Fields.fromList([['content-type', encoder.encode(type)]]));
    response.setStatusCode(status);
    const outgoing = response.body();
    ResponseOutparam.set(responseOut, { tag: 'ok', val: response });
    const stream = outgoing.write();
    for (let offset = 0; offset < body.length; offset += 4096) {
      stream.blockingWriteAndFlush(body.subarray(offset, offset + 4096));
    }
    stream[Symbol.dispose]?.();
    OutgoingBody.finish(outgoing, undefined);
  },
};
