/** The checks of one turn still queued or running, and who waits for them all to finish. */
interface TurnQueue {
  tail: Promise<void>;
  pending: number;
  idle: Array<() => void>;
}

function ignore(): void {}

/**
 * Orders the before-tool checks (hooks, then the permission decision and any question to the
 * user) of the calls of one turn: they run one after another in the order the calls arrived,
 * which is the model's order when the loop starts a turn's calls in that order, and a call runs
 * only once no check of its turn is left. So for a group of read-only calls started together,
 * every hook runs first, one at a time, and then the allowed calls run in parallel; writers,
 * which the loop starts one after another, each pass their checks and run in turn.
 * Calls are grouped by `sessionId` and `turnId`.
 *
 * `runQuery` of `@boxagnts/query` does better through the tools' `prepare` (see `guardTool`): it
 * checks every call of a turn, one after another in the model's order, before it runs any, so a
 * writer's hook no longer waits for the writers before it, nor a read's hook for a free slot of
 * `tools.maxConcurrency`. The sequencer still orders checks of hosts that call `execute` directly.
 */
export class TurnSequencer {
  private readonly turns = new Map<string, TurnQueue>();

  /** Runs `checks` after every earlier check of the same turn has finished (failed ones too). */
  sequence<T>(key: string, checks: () => Promise<T>): Promise<T> {
    let turn = this.turns.get(key);
    if (turn === undefined) {
      turn = { tail: Promise.resolve(), pending: 0, idle: [] };
      this.turns.set(key, turn);
    }
    const queue = turn;
    queue.pending += 1;
    const run = queue.tail.then(checks);
    queue.tail = run.then(ignore, ignore).then(() => {
      queue.pending -= 1;
      if (queue.pending > 0) return;
      if (this.turns.get(key) === queue) this.turns.delete(key);
      for (const resolve of queue.idle.splice(0)) resolve();
    });
    return run;
  }

  /** Resolves once no check of the turn is queued or running. */
  idle(key: string): Promise<void> {
    const turn = this.turns.get(key);
    if (turn === undefined) return Promise.resolve();
    return new Promise((resolve) => turn.idle.push(resolve));
  }

  /** How many turns have checks in flight (for tests: the map never keeps a finished turn). */
  get activeTurns(): number {
    return this.turns.size;
  }
}

/** The key that groups the calls of one turn. */
export function turnKey(context: { sessionId: string; turnId: string }): string {
  return `${context.sessionId}\u0000${context.turnId}`;
}
