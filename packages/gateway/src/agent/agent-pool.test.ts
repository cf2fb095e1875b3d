import { describe, expect, it } from 'vitest';
import { AgentPool } from './agent-pool.js';
import type { Agent } from './create-agent.js';

/** A stand-in agent: records its mode resets and whether it was closed. */
function fakeAgent(id: number) {
  const state = { id, closed: 0, modes: [] as string[] };
  const agent = {
    tools: { permissions: { setMode: (mode: string) => state.modes.push(mode) } },
    close: async () => {
      state.closed++;
    },
  } as unknown as Agent;
  return { agent, state };
}

function pool() {
  const made: ReturnType<typeof fakeAgent>['state'][] = [];
  const agents = new AgentPool(
    async () => {
      const fake = fakeAgent(made.length + 1);
      made.push(fake.state);
      return fake.agent;
    },
    () => 'default',
  );
  return { agents, made };
}

describe('AgentPool', () => {
  it('reuses a given-back agent with its mode reset, and never leases one agent to two runs at once', async () => {
    const { agents, made } = pool();
    const first = await agents.acquire('build', undefined);
    const second = await agents.acquire('build', undefined);
    expect(first.agent).not.toBe(second.agent);
    first.release();
    first.release();
    const third = await agents.acquire('build', undefined);
    expect(third.agent).toBe(first.agent);
    expect(made.map((state) => state.modes)).toEqual([['default'], []]);
  });

  it('refresh closes idle agents now and leased ones when given back; later leases get new agents', async () => {
    const { agents, made } = pool();
    const idle = await agents.acquire('build', undefined);
    const busy = await agents.acquire('build', undefined);
    idle.release();
    agents.refresh();
    await Promise.resolve();
    expect(made.map((state) => state.closed)).toEqual([1, 0]);
    const fresh = await agents.acquire('build', undefined);
    expect(fresh.agent).not.toBe(idle.agent);
    expect(fresh.agent).not.toBe(busy.agent);
    busy.release();
    await Promise.resolve();
    expect(made.map((state) => state.closed)).toEqual([1, 1, 0]);
    fresh.release();
    expect((await agents.acquire('build', undefined)).agent).toBe(fresh.agent);
    await agents.close();
    expect(made.map((state) => state.closed)).toEqual([1, 1, 1]);
  });
});
