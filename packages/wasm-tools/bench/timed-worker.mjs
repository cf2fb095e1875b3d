// The component worker (src/runtime/worker.mjs) with timestamps, for bench/cold-phases.ts only:
// it records when the process started, when its code began to run, the IPC messages, and each
// WebAssembly compile and instantiate, and writes them to a file named by its pid when it answers
// its first call. Timestamps are epoch milliseconds (performance.timeOrigin + now).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
// Through emit, not a listener: a listener would start reading the channel before worker.mjs
// listens, and the messages that came first would never reach it.
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
await import('../src/runtime/worker.mjs');
