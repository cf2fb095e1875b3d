// bench/timed-worker.mjs for the built worker (dist/runtime/worker.cjs): the same timestamps, as
// CommonJS so the timing does not start Node's ESM loader the bundle avoids. bench/runtime.ts
// copies this file beside the bundle it measures; it runs the worker.cjs next to it.
const { writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const now = () => performance.timeOrigin + performance.now();
const marks = [
  { name: 'process', at: performance.timeOrigin },
  { name: 'entry', at: now() },
];
const span = (name, start) => marks.push({ name, at: start, end: now() });

const send = process.send.bind(process);
process.send = (message, ...rest) => {
  marks.push({ name: `send:${message?.type}`, at: now() });
  if (message?.type === 'result') {
    writeFileSync(join(tmpdir(), `boxagnts-cold-phases-${process.pid}.json`), JSON.stringify(marks));
  }
  return send(message, ...rest);
};
const emit = process.emit;
process.emit = function timedEmit(event, message, ...rest) {
  if (event === 'message') marks.push({ name: `receive:${message?.type}`, at: now() });
  return emit.call(this, event, message, ...rest);
};
const { compile, instantiate } = WebAssembly;
WebAssembly.compile = async (...args) => {
  const start = now();
  const module = await compile(...args);
  span('compile', start);
  return module;
};
WebAssembly.instantiate = async (...args) => {
  const start = now();
  const instance = await instantiate(...args);
  span('instantiate', start);
  return instance;
};
require(join(__dirname, 'worker.cjs'));
