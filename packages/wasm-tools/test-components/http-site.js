// Built with componentize-js (StarlingMonkey) by src/runtime/http-test-components.ts: a
// `wasi:http/incoming-handler` component like BoxAgnts' static site server. It serves the files
// of the folder preopened at `/` through the engine's fetch event, with a content type by file
// extension, 404 for what it cannot open, and basic auth when `wasi:config/store` holds a
// `username` and `password`.
import { get } from 'wasi:config/store@0.2.0-draft';
import { getDirectories } from 'wasi:filesystem/preopens@0.2.10';

const TYPES = { html: 'text/html; charset=utf-8', css: 'text/css; charset=utf-8', js: 'text/javascript' };

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
  return request.headers.get('authorization') === `Basic ${btoa(`${username}:${password}`)}`;
}

function serve(request) {
  if (!authorised(request)) {
    return new Response('Authentication required.', {
      status: 401,
      headers: { 'www-authenticate': 'Basic realm="site"' },
    });
  }
  const segments = new URL(request.url).pathname.split('/').filter((segment) => segment !== '');
  const names = segments.map((segment) => decodeURIComponent(segment));
  if (names.length === 0) names.push('index.html');
  if (names.some((name) => name === '..' || name === '.' || name.includes('/'))) {
    return new Response('Not found.', { status: 404 });
  }
  try {
    const bytes = readFile(names.join('/'));
    const extension = names.at(-1).split('.').at(-1);
    return new Response(bytes, { headers: { 'content-type': TYPES[extension] ?? 'application/octet-stream' } });
  } catch {
    return new Response('Not found.', { status: 404 });
  }
}

addEventListener('fetch', (event) => event.respondWith(serve(event.request)));
