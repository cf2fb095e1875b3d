import type { Agent } from './create-agent.js';

/** An agent taken from an {@link AgentPool}, to be given back with `release()` when the run ends. */
export interface LeasedAgent {
  agent: Agent;
  release(): void;
}

/**
 * Agents of one workspace, leased out one run at a time. A tool set carries run state (the
 * permission engine's mode follows `enter_plan_mode`), so two runs never share one at once: a run
 * takes an idle agent of its name and model or a new one, and gives it back with its permission
 * mode reset to `resetMode`.
 */
export class AgentPool {
  readonly #create: (name: string, model: string | undefined) => Promise<Agent>;
  readonly #resetMode: () => string;
  readonly #idle = new Map<string, Agent[]>();
  readonly #made = new Set<Promise<Agent>>();
  /** Each agent's generation: one made before the last {@link refresh} is closed when given back. */
  readonly #generationOf = new WeakMap<Agent, number>();
  readonly #promiseOf = new WeakMap<Agent, Promise<Agent>>();
  #generation = 0;
  #closed = false;

  constructor(create: (name: string, model: string | undefined) => Promise<Agent>, resetMode: () => string) {
    this.#create = create;
    this.#resetMode = resetMode;
  }

  /** Agents made so far (idle and leased). */
  get size(): number {
    return this.#made.size;
  }

  /** Leases an idle agent of this name and model, or makes one. */
  async acquire(name: string, model: string | undefined): Promise<LeasedAgent> {
    const key = `${name}\u0000${model ?? ''}`;
    let agent = this.#idle.get(key)?.pop();
    if (agent === undefined) {
      const generation = this.#generation;
      const made = this.#create(name, model);
      this.#made.add(made);
      made.catch(() => this.#made.delete(made));
      agent = await made;
      this.#generationOf.set(agent, generation);
      this.#promiseOf.set(agent, made);
    }
    const leased = agent;
    let released = false;
    return {
      agent: leased,
      release: () => {
        if (released) return;
        released = true;
        if (this.#closed) return;
        if ((this.#generationOf.get(leased) ?? 0) < this.#generation) {
          this.#retire(leased);
          return;
        }
        leased.tools.permissions.setMode(this.#resetMode() as Parameters<Agent['tools']['permissions']['setMode']>[0]);
        const list = this.#idle.get(key) ?? [];
        list.push(leased);
        this.#idle.set(key, list);
      },
    };
  }

  /**
   * Makes every later lease use a newly composed agent (after the workspace's permissions, AGENTS.md or
   * output styles changed): idle agents are closed now, leased ones when their run gives them back.
   */
  refresh(): void {
    this.#generation++;
    for (const list of this.#idle.values()) for (const agent of list) this.#retire(agent);
    this.#idle.clear();
  }

  #retire(agent: Agent): void {
    const made = this.#promiseOf.get(agent);
    if (made !== undefined) this.#made.delete(made);
    void agent.close().catch(() => undefined);
  }

  /** Closes every agent made (leased ones too: call after the runs stopped). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const made of this.#made) await made.then((agent) => agent.close()).catch(() => undefined);
    this.#made.clear();
    this.#idle.clear();
  }
}
