// Built with componentize-js (StarlingMonkey) by src/runtime/http-test-components.ts: a command
// component like BoxAgnts' web-fetch tool. BoxAgnts' calling convention: flags in argv (`--url
// URL`), the result on stdout as Rust debug notation of a JSON value with `is_error`. It fetches
// with the engine's `fetch()`, which goes out through `wasi:http/outgoing-handler`; a refused
// request (the host answers with a status and `x-boxagnts-refusal`) or a failed one is an error.
import { getArguments } from 'wasi:cli/environment@0.2.10';

function flag(argv, name) {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

function rustString(text) {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += char;
  }
  return `${out}"`;
}

function print(content, isError) {
  console.log(`Object {"content": String(${rustString(content)}), "is_error": Bool(${isError})}`);
}

function pageText(html) {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export const run = {
  async run() {
    const url = flag(getArguments(), '--url');
    if (url === undefined) return print('Missing --url.', true);
    try {
      const response = await fetch(url, { redirect: 'manual' });
      const body = await response.text();
      if (response.status >= 300) return print(`HTTP ${response.status}: ${body}`, true);
      print(pageText(body), false);
    } catch (error) {
      print(`Fetching ${url} failed: ${error}`, true);
    }
  },
};
