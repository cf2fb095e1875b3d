import { describe, expect, it } from 'vitest';
import { TurnSequencer, turnKey } from './turn-sequencer.js';

describe('TurnSequencer', () => {
  it('runs the checks of a turn in arrival order, keeps going after a failure, and forgets finished turns', async () => {
    const sequencer = new TurnSequencer();
    const log: string[] = [];
    const key = turnKey({ sessionId: 's', turnId: 't1' });
    const step = (label: string, fail = false) =>
      sequencer.sequence(key, async () => {
        log.push(`start ${label}`);
        await new Promise((resolve) => setImmediate(resolve));
        log.push(`end ${label}`);
        if (fail) throw new Error(`${label} failed`);
        return label;
      });
    const results = await Promise.allSettled([step('a'), step('b', true), step('c')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    await sequencer.idle(key);
    expect(sequencer.activeTurns).toBe(0);
  });

  it('idle waits for every queued check of the turn, and other turns do not wait on it', async () => {
    const sequencer = new TurnSequencer();
    const log: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = turnKey({ sessionId: 's', turnId: 't1' });
    const second = turnKey({ sessionId: 's', turnId: 't2' });
    void sequencer.sequence(first, () => held);
    const waiting = sequencer.idle(first).then(() => log.push('first idle'));
    await sequencer.sequence(second, async () => log.push('second ran'));
    await sequencer.idle(second);
    expect(log).toEqual(['second ran']);
    release();
    await waiting;
    expect(log).toEqual(['second ran', 'first idle']);
    expect(sequencer.activeTurns).toBe(0);
  });
});
