/**
 * The value printer, as JavaScript for the sandbox: an expression that evaluates to
 * `{ format, describeError, formatArgs }`. Formatting happens inside the sandbox, bounded in depth,
 * breadth and length, so the host only ever copies short strings out of the VM.
 */
export function printerSource(limit: number): string {
  return `(function () {
  'use strict';
  const LIMIT = ${limit};
  const MAX_DEPTH = 4;
  const MAX_ITEMS = 100;
  function clip(text) {
    return text.length > LIMIT ? text.slice(0, LIMIT) + '... [' + (text.length - LIMIT) + ' more characters]' : text;
  }
  function quote(text) {
    return JSON.stringify(text.length > LIMIT ? text.slice(0, LIMIT) : text);
  }
  function inspect(value, depth, seen) {
    const type = typeof value;
    if (value === null) return 'null';
    if (type === 'undefined') return 'undefined';
    if (type === 'string') return depth === 0 ? value : quote(value);
    if (type === 'number' || type === 'boolean') return String(value);
    if (type === 'bigint') return String(value) + 'n';
    if (type === 'symbol') return value.toString();
    if (type === 'function') return '[Function' + (value.name ? ': ' + value.name : ' (anonymous)') + ']';
    if (seen.indexOf(value) !== -1) return '[Circular]';
    if (value instanceof Error) return describeError(value);
    if (value instanceof Date) return isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
    if (value instanceof RegExp) return String(value);
    if (typeof Promise !== 'undefined' && value instanceof Promise) return 'Promise {}';
    if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[Array]' : '[Object]';
    const inner = seen.concat([value]);
    const parts = [];
    let total = 0;
    if (Array.isArray(value) || ArrayBuffer.isView(value)) {
      total = value.length;
      for (let index = 0; index < Math.min(total, MAX_ITEMS); index += 1) parts.push(inspect(value[index], depth + 1, inner));
      if (total > MAX_ITEMS) parts.push('... ' + (total - MAX_ITEMS) + ' more items');
      const prefix = Array.isArray(value) ? '' : (value.constructor && value.constructor.name ? value.constructor.name + ' ' : '');
      return prefix + '[' + parts.join(', ') + ']';
    }
    if (value instanceof Map || value instanceof Set) {
      const isMap = value instanceof Map;
      total = value.size;
      for (const entry of value) {
        if (parts.length >= MAX_ITEMS) break;
        parts.push(isMap ? inspect(entry[0], depth + 1, inner) + ' => ' + inspect(entry[1], depth + 1, inner) : inspect(entry, depth + 1, inner));
      }
      if (total > MAX_ITEMS) parts.push('... ' + (total - MAX_ITEMS) + ' more items');
      return (isMap ? 'Map(' : 'Set(') + total + ') {' + (parts.length ? ' ' + parts.join(', ') + ' ' : '') + '}';
    }
    const keys = Object.keys(value);
    total = keys.length;
    for (let index = 0; index < Math.min(total, MAX_ITEMS); index += 1) {
      const key = keys[index];
      let shown;
      try { shown = inspect(value[key], depth + 1, inner); } catch (error) { shown = '[Getter threw]'; }
      parts.push((/^[A-Za-z_$][\\w$]*$/.test(key) ? key : quote(key)) + ': ' + shown);
    }
    if (total > MAX_ITEMS) parts.push('... ' + (total - MAX_ITEMS) + ' more keys');
    const name = value.constructor && value.constructor !== Object && value.constructor.name ? value.constructor.name + ' ' : '';
    return name + '{' + (parts.length ? ' ' + parts.join(', ') + ' ' : '') + '}';
  }
  function describeError(error) {
    if (!(error instanceof Error)) return 'Uncaught ' + inspect(error, 1, []);
    const head = String(error.name) + ': ' + String(error.message);
    const stack = typeof error.stack === 'string' ? error.stack.split('\\n').filter(function (line) { return line.trim() !== ''; }) : [];
    const shown = stack.slice(0, 10);
    if (stack.length > 10) shown.push('    ... ' + (stack.length - 10) + ' more frames');
    return [head].concat(shown).join('\\n');
  }
  function formatArgs(args) {
    const parts = [];
    for (let index = 0; index < args.length; index += 1) parts.push(inspect(args[index], 0, []));
    return parts.join(' ');
  }
  return {
    format: function (value) { return clip(inspect(value, 0, [])); },
    describeError: function (error) { return clip(describeError(error)); },
    formatArgs: function (args) { return clip(formatArgs(args)); },
  };
})()`;
}

/**
 * JavaScript evaluated in every fresh QuickJS context before the user's code: a small function
 * expression that, called with the host's `write(level, text)` and `printerSource()`, installs
 * `console` and returns `{ load }`, which fetches and compiles the printer (see
 * {@link printerSource}) on first use only, so calls that print nothing but primitives skip that
 * cost. The host functions stay in the closure: no global names them.
 */
export function guestPrelude(maxTextLength: number): string {
  const limit = Math.max(64, Math.floor(maxTextLength));
  return `(function (write, printerSource) {
  'use strict';
  const LIMIT = ${limit};
  const indirectEval = globalThis.eval;
  let printer;
  function load() { return printer || (printer = indirectEval(printerSource())); }
  function method(level) {
    return function () {
      let plain = '';
      for (let index = 0; index < arguments.length; index += 1) {
        const value = arguments[index];
        const type = typeof value;
        if (type !== 'string' && type !== 'number' && type !== 'boolean') {
          write(level, load().formatArgs(arguments));
          return;
        }
        plain += (index === 0 ? '' : ' ') + String(value);
        if (plain.length > LIMIT) break;
      }
      write(level, plain.length > LIMIT ? plain.slice(0, LIMIT) + '... [more characters]' : plain);
    };
  }
  const console = {
    log: method(''), info: method(''), debug: method(''),
    warn: method('warn'), error: method('error'), trace: method('error'),
  };
  Object.defineProperty(globalThis, 'console', { value: console, writable: true, configurable: true, enumerable: false });
  return { load: load };
})`;
}
