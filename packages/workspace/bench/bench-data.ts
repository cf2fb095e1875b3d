import type { Message } from '@boxagnts/api';
import type { SessionEntry } from '@boxagnts/query';

/** A word that occurs in one message of every {@link RARE_EVERY}. */
export const RARE_WORD = 'zebracorn';
export const RARE_EVERY = 5000;

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'be', 'da', 'fe', 'go', 'hu', 'ji', 'pe', 'zu'];

/** A deterministic pseudo-random generator (mulberry32), so every run stores the same text. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** 4,096 made-up words; low indexes are common (the text below draws them Zipf-like). */
export const VOCABULARY: readonly string[] = Array.from({ length: 4096 }, (_, index) => {
  let word = '';
  let rest = index + 17;
  for (let part = 0; part < 3; part++) {
    word += SYLLABLES[rest % SYLLABLES.length];
    rest = Math.floor(rest / SYLLABLES.length);
  }
  return word;
});

/**
 * Session entries of about 300 characters each, alternating a user message (string content)
 * and an assistant message (a text block), as a chat stores them. `offset` is the index of the
 * first entry in the whole data set (it decides where the rare word lands).
 */
export function benchEntries(count: number, seed: number, offset = 0): SessionEntry[] {
  const next = random(seed);
  const entries: SessionEntry[] = [];
  for (let index = 0; index < count; index++) {
    const words: string[] = [];
    for (let word = 0; word < 45; word++) words.push(VOCABULARY[Math.floor(next() ** 3 * VOCABULARY.length)] as string);
    if ((offset + index) % RARE_EVERY === 0) words.splice(20, 0, RARE_WORD);
    const text = words.join(' ');
    const message: Message =
      index % 2 === 0 ? { role: 'user', content: text } : { role: 'assistant', content: [{ type: 'text', text }] };
    entries.push({ message, createdAt: 1_764_460_800_000 + offset + index });
  }
  return entries;
}

/** Search queries of different selectivity, with what share of the messages each matches. */
export function benchQueries(): Array<{ label: string; query: string }> {
  return [
    { label: 'a common word (in 95% of messages)', query: VOCABULARY[0] as string },
    { label: 'a middling word (in 2%)', query: VOCABULARY[300] as string },
    { label: `a rare word (1 in ${RARE_EVERY.toLocaleString('en-US')})`, query: RARE_WORD },
    { label: 'two words, both required (2%)', query: `${VOCABULARY[5]} ${VOCABULARY[40]}` },
  ];
}
