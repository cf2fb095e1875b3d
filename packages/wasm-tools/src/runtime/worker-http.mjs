// The process that hosts one HTTP component (a `wasi:http/incoming-handler`, such as BoxAgnts'
// static site server): forked by component-http-handler.ts with an empty environment, it
// instantiates the component with its root preopened read-only at `/`, `wasi:config/store` answered
// from the given map, no outgoing HTTP, and serves it with preview2-shim's HTTP server on an
// ephemeral loopback port, which it reports to the host. Plain JS: a forked child cannot import TS.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HTTPServer } from '@bytecodealliance/preview2-shim/http';
import { createCapabilities } from './worker-capabilities.mjs';
import { loadGlue } from './worker-code-cache.mjs';

async function start(job) {
  // No import list: the site server always uses the shim (its HTTP server speaks the shim's wasi:http).
  const capabilities = await createCapabilities({
    root: job.root,
    readOnly: true,
    env: {},
    args: [],
    maxOutputBytes: 64 * 1024,
    policy: job.policy,
  });
  const config = new Map(Object.entries(job.config));
  capabilities.imports['wasi:config/store'] = {
    get: (key) => config.get(key),
    getAll: () => [...config.entries()],
  };
  const glue = await loadGlue(job.component.dir, job.component.entry);
  const exports = await glue.instantiate(
    (name) => readFile(join(job.component.dir, name)).then((bytes) => WebAssembly.compile(bytes)),
    capabilities.imports,
  );
  const handler =
    exports.incomingHandler ??
    Object.entries(exports).find(([name]) => name.startsWith('wasi:http/incoming-handler'))?.[1];
  if (typeof handler?.handle !== 'function')
    throw new Error('The component does not export wasi:http/incoming-handler.');
  const server = new HTTPServer(handler);
  server.listen(0, '127.0.0.1');
  return server.address();
}

process.once('message', (job) => {
  start(job).then(
    (address) => process.send({ type: 'listening', port: address.port }),
    (error) => process.send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
