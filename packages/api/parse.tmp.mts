import { startMockServer } from '@boxagnts/testkit';
import { createSseParser } from '/work/main/packages/api/src/shared/sse-parser.ts';
import { streamWithRetries } from '/work/main/packages/api/src/shared/stream-with-retries.ts';
import { OpenAIResponsesStreamMapper } from '/work/main/packages/api/src/adapters/openai-responses/map-openai-responses-stream.ts';
import { AnthropicStreamDecoder } from '/work/main/packages/api/src/adapters/anthropic-messages/anthropic-stream-decoder.ts';

const paragraphs = [
  'Streaming parsers spend most of their time in three places: finding event boundaries, decoding bytes to text, and parsing JSON.',
  'A "delta" of four characters is close to what a live model sends per token — so per-event overhead dominates, not bytes.',
  'Résumé of costs: the socket read, the UTF-8 decode, the SSE split, JSON.parse, and whatever the client adds on top.',
  'Async iteration adds a promise per event; a queue between producer and consumer adds another; timers add more.',
  'Keep the hot path flat:\n- no per-event closures,\n- no per-event timers,\n- no copies of the whole buffer.',
];
let text = '';
for (let round = 0; text.length < 2_600; round += 1) text += `${paragraphs[round % paragraphs.length]} (${round})\n\n`;

const which = process.argv[2] ?? 'responses';
const mock = await startMockServer();
mock.setScript({ steps: [{ text, chunking: { textDelta: 4 } }], repeatLast: true });
const [path, body] = which === 'responses' ? ['/v1/responses', { model: 'm', stream: true, input: 'x' }] : ['/v1/messages', { model: 'm', stream: true, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }];
const r = await fetch(mock.url + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k', 'x-api-key': 'k' }, body: JSON.stringify(body) });
const bytes = new Uint8Array(await r.arrayBuffer());
await mock.close();
const chunks: Uint8Array[] = [];
for (let i = 0; i < bytes.length; i += 16384) chunks.push(Buffer.from(bytes.subarray(i, i + 16384)));
let events = 0;
createSseParser({ onEvent: () => events++ }).feed(bytes);
console.log(which, 'bytes', bytes.length, 'events', events, 'chunks', chunks.length);

const evs: any[] = [];
{ const p = createSseParser({ onEvent: (e) => evs.push(e) }); p.feed(bytes); p.end(); }
function parseOnly() { let n = 0; for (const e of evs) { const v = JSON.parse(e.data); if (typeof v.delta === 'string') n += v.delta.length; } return n; }
function handleOnly() { const out: any[] = []; const m = new OpenAIResponsesStreamMapper({ providerId: 'x', declaredToolNames: new Set() }); for (const e of evs) m.handle(e, out); return out.length; }
function anthOnly() { const out: any[] = []; const d = new AnthropicStreamDecoder({ errorContext: { providerId: 'x' } }); for (const e of evs) d.handleData(e.data, out); return out.length; }
const fns: Record<string, () => unknown> = which === 'responses' ? { parseOnly, handleOnly } : { parseOnly, anthOnly };
const results: Record<string, number[]> = {};
for (const f of Object.values(fns)) for (let i = 0; i < 2000; i++) f();
for (let k = 0; k < 21; k++) for (const [n, f] of Object.entries(fns)) {
  const N = 1000; const t = process.hrtime.bigint(); for (let i = 0; i < N; i++) f(); const d = Number(process.hrtime.bigint() - t) / 1000;
  (results[n] ??= []).push(d / N / events);
}
for (const [n, v] of Object.entries(results)) { v.sort((a, b) => a - b); console.log(n.padEnd(12), 'min', v[0].toFixed(3), 'med', v[10].toFixed(3)); }
