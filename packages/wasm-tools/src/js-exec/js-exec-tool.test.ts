import { resultText, type ToolContext } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { createJsExecTool, JsExecConfigError } from './js-exec-tool.js';

function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { root: process.cwd(), signal, sessionId: 's', turnId: 't', toolCallId: 'c' };
}

const tool = createJsExecTool({ timeoutMs: 1_000, memoryLimitBytes: 16 * 1024 * 1024 });

async function run(code: string, signal?: AbortSignal) {
  const result = await tool.execute({ code }, context(signal));
  return { result, text: resultText(result) };
}

describe('js_exec: results and output', () => {
  it('reports the value of the last expression', async () => {
    const { result, text } = await run('const xs = [1, 2, 3]; xs.map((n) => n * 2)');
    expect(result.isError).toBeFalsy();
    expect(text).toBe('result: [2, 4, 6]');
    expect(result.metadata).toMatchObject({ outcome: 'ok', result: '[2, 4, 6]' });
  });

  it('prints objects, strings and nested values readably', async () => {
    expect((await run('({ a: 1, b: "two", c: [null, undefined], d: new Map([[1, {x: true}]]) })')).text).toBe(
      'result: { a: 1, b: "two", c: [null, undefined], d: Map(1) { 1 => { x: true } } }',
    );
    expect((await run('"plain text"')).text).toBe('result: plain text');
    expect((await run('const o = {}; o.self = o; o')).text).toBe('result: { self: [Circular] }');
  });

  it('captures console.log, warn and error in order', async () => {
    const { text } = await run('console.log("hello", 42, {k: "v"}); console.warn("careful"); console.error("bad"); 7');
    expect(text).toBe('console:\nhello 42 { k: "v" }\n[warn] careful\n[error] bad\n\nresult: 7');
  });

  it('returns the value of top-level await code through return', async () => {
    const { text } = await run('const value = await Promise.resolve(20); return value + 1;');
    expect(text).toBe('result: 21');
  });

  it('returns the exports of module code', async () => {
    const { text } = await run('export const answer = 42; export default "d";');
    expect(text).toBe('result: { answer: 42, default: "d" }');
  });

  it('runs promise callbacks before reporting', async () => {
    const { text } = await run('Promise.resolve(1).then((v) => console.log("then", v)); "sync"');
    expect(text).toBe('console:\nthen 1\n\nresult: sync');
  });

  it('caps console output, keeping head and tail', async () => {
    const small = createJsExecTool({ maxOutputBytes: 500 });
    const result = await small.execute({ code: 'for (let i = 0; i < 5000; i++) console.log("line " + i)' }, context());
    const text = resultText(result);
    expect(text).toContain('line 0\nline 1\n');
    expect(text).toContain('line 4999');
    expect(text).toContain('bytes of output omitted');
    expect(text.length).toBeLessThan(700);
    expect(result.metadata).toMatchObject({ truncated: true });
  });

  it('clips a huge result string inside the sandbox', async () => {
    const { text } = await run('"x".repeat(5_000_000)');
    expect(text.length).toBeLessThan(40_000);
    expect(text).toContain('more characters]');
  });
});

describe('js_exec: errors', () => {
  it('reports a syntax error with its position', async () => {
    const { result, text } = await run('const = 5');
    expect(result.isError).toBe(true);
    expect(text).toMatch(/^error:\nSyntaxError: .+\n\s+at main\.js:1:\d+/);
  });

  it('reports a thrown error with message and stack line, keeping the console output before it', async () => {
    const { result, text } = await run(
      'console.log("before");\nfunction fail() { throw new TypeError("bad input"); }\nfail();',
    );
    expect(result.isError).toBe(true);
    expect(text).toContain('console:\nbefore');
    expect(text).toContain('error:\nTypeError: bad input\n    at fail (main.js:2:');
  });

  it('reports thrown non-errors and rejected promises', async () => {
    expect((await run('throw "plain"')).text).toBe('error: Uncaught "plain"');
    expect((await run('await Promise.reject(new RangeError("nope"))')).text).toContain('RangeError: nope');
  });

  it('stops an infinite loop at the deadline, then the next call works', async () => {
    const { result, text } = await run('while (true) {}');
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'timed-out' });
    expect(text).toContain('ran longer than 1000 ms');
    expect((await run('1 + 1')).text).toBe('result: 2');
  });

  it('fails cleanly on a memory bomb of objects, then the next call works', async () => {
    const { result, text } = await run('const all = []; while (true) all.push({ a: [1, 2, 3], b: "x" + all.length });');
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'out-of-memory', recreated: true });
    expect(text).toContain('out of memory');
    expect((await run('[1, 2].length')).text).toBe('result: 2');
  });

  it('fails cleanly on large typed arrays past the memory cap', async () => {
    const { result } = await run(
      'const keep = []; for (let i = 0; i < 100; i++) keep.push(new Uint8Array(8 * 1024 * 1024)); keep.length',
    );
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'out-of-memory' });
    expect((await run('"still alive"')).text).toBe('result: still alive');
  });

  it('survives a stack overflow, then the next call works', async () => {
    const { result, text } = await run('function down(n) { return down(n + 1) + 1; } down(0)');
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'stack-overflow', recreated: true });
    expect(text).toContain('stack overflow');
    expect((await run('function depth(n) { return n === 0 ? 0 : depth(n - 1) + 1; } depth(500)')).text).toBe(
      'result: 500',
    );
  });

  it('survives an overflow in deeply nested data, then the next call works', async () => {
    const { result } = await run('JSON.parse("[".repeat(200000) + "]".repeat(200000))');
    expect(result.isError).toBe(true);
    expect((await run('3 * 3')).text).toBe('result: 9');
  });
});

describe('js_exec: isolation', () => {
  it('has no host globals', async () => {
    const { text } = await run(
      '[typeof process, typeof require, typeof fetch, typeof setTimeout, typeof module, typeof std, typeof os, typeof Deno].join()',
    );
    expect(text).toBe('result: undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined');
  });

  it('exposes only the language built-ins and console on globalThis', async () => {
    const { text } = await run(
      'Object.getOwnPropertyNames(globalThis).filter((name) => !/^[A-Z]/.test(name)).sort().join()',
    );
    expect(text).toBe(
      'result: console,decodeURI,decodeURIComponent,encodeURI,encodeURIComponent,escape,eval,globalThis,isFinite,isNaN,parseFloat,parseInt,undefined,unescape',
    );
  });

  it('keeps no state between calls', async () => {
    await run('globalThis.leak = 1; var leakedVar = 2; Array.prototype.injected = 3; console.log = null;');
    const { text } = await run('[typeof leak, typeof leakedVar, typeof [].injected, typeof console.log].join()');
    expect(text).toBe('result: undefined,undefined,undefined,function');
  });

  it('does not run when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { result } = await run('console.log("ran")', controller.signal);
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'aborted' });
    expect(resultText(result)).not.toContain('ran');
  });

  it('stops an endless promise chain when the signal is aborted', async () => {
    const patient = createJsExecTool({ timeoutMs: 20_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await patient.execute(
      { code: 'let n = 0; async function spin() { while (true) { await null; n++; } } spin(); "started"' },
      context(controller.signal),
    );
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'aborted' });
    expect((await patient.execute({ code: '"after"' }, context())).metadata).toMatchObject({ result: 'after' });
  });

  it('refuses bad limits at configuration time', () => {
    expect(() => createJsExecTool({ timeoutMs: 0 })).toThrow(JsExecConfigError);
    expect(() => createJsExecTool({ memoryLimitBytes: Number.NaN })).toThrow(/memoryLimitBytes/);
  });
});
